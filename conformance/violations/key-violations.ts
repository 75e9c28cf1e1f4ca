// Violations of the Idempotency-Key's rules at their edges: an empty key, a key's characters where they stand,
// a key sent to the alternate address, a key check that guards one tenant only.
import { randomBytes } from 'node:crypto';
import type { PlainResponse } from '../../simulator/index.ts';
import { defaultAccess } from './default-access.ts';
import { isCreation, KEYED, keyOf, perCore } from './idempotency-violations.ts';
import { editJson, failureOf, jsonBodyOf, withHeader, withJsonBody } from './json-edit.ts';
import type { Violation } from './types.ts';

const firstAnswer = perCore(() => new Map<string, PlainResponse>());
const fingerprints = perCore(() => new Map<string, { fingerprint: string; body: Record<string, unknown> }>());

/** The Authorization each key's first creation came with, per sandbox (per run). */
const firstAuthorization = new WeakMap<object, Map<string, string>>();

export const KEY_VIOLATIONS: Violation[] = [
  {
    name: 'replay-fingerprint-hashes-token',
    description:
      'the stored fingerprint of an idempotent creation hashes the Authorization header with the body: the same key and content sent again under a renewed token is refused as idempotency_conflict',
    section: 'POST /api/public/v1/connections',
    catches: ['idempotency.replay'],
    // A retry after an injected 429 waits its Retry-After: where the token was renewed meanwhile, the same refusal.
    mayCatch: ['idempotency.retry-after-fault'],
    access: 'client-credentials',
    async handle(req, next, core) {
      const res = await next(req);
      const key = keyOf(req);
      if (!isCreation(req) || res.status !== 200 || !key) return res;
      const seen = firstAuthorization.get(core) ?? new Map<string, string>();
      firstAuthorization.set(core, seen);
      const slot = `${req.headers['x-service-tenant'] ?? ''} ${key}`;
      const auth = req.headers.authorization ?? '';
      let replayed = false;
      editJson(res, (b) => {
        replayed = (b.meta as { replayed?: unknown } | undefined)?.replayed === true;
      });
      if (!replayed) {
        seen.set(slot, auth);
        return res;
      }
      if (seen.get(slot) === auth) return res;
      const conflict = failureOf('idempotency_conflict', 'the key was used with other content');
      const limits = Object.entries(res.headers).filter(([k]) => k.startsWith('x-ratelimit-'));
      return { ...conflict, headers: { ...conflict.headers, ...Object.fromEntries(limits) } };
    },
  },
  {
    name: 'empty-key-gets-generated-key',
    description:
      'an empty Idempotency-Key header on POST /connections is filled with a generated key and the connection is created',
    section: 'Limits',
    catches: ['limits.idempotency-key'],
    handle(req, next) {
      const key = keyOf(req);
      if (!isCreation(req) || key === undefined || key.trim() !== '') return next(req);
      return next(withHeader(req, 'idempotency-key', `gen-${randomBytes(8).toString('hex')}`));
    },
  },
  {
    name: 'key-leading-punctuation-refused',
    description:
      'an Idempotency-Key starting with a dot or a hyphen is refused 400 (a guard against hidden files and command-line flags), though the pattern allows it',
    section: 'Limits',
    catches: ['limits.idempotency-key', 'webhooks.registration-forms'],
    async handle(req, next) {
      const key = keyOf(req);
      if (!KEYED.has(req.path) || req.method !== 'POST' || key === undefined || !/^[.-]/.test(key)) return next(req);
      // Refused the way the service refuses a key outside its pattern (its answer, headers and all).
      return next(withHeader(req, 'idempotency-key', `!${key}`));
    },
  },
  {
    name: 'alt-key-replays-first-answer',
    description:
      "at the alternate base URL, a creation whose key was used before is answered with the first call's result, whatever its content (a cache in front of that address keyed by the key alone)",
    section: 'POST /api/public/v1/connections',
    catches: ['idempotency.conflict', 'places.scenario-alike'],
    async handle(req, next, core, base) {
      const key = keyOf(req);
      if (!isCreation(req) || key === undefined) return next(req);
      const first = firstAnswer(core).get(key);
      if (base === 'alt' && first)
        return editJson(first, (b) => {
          b.meta = { ...b.meta, replayed: true };
        });
      const res = await next(req);
      if (res.status === 200 && !first) firstAnswer(core).set(key, res);
      return res;
    },
  },
  {
    name: 'idempotency-key-from-query-accepted',
    description:
      'POST /connections without the Idempotency-Key header takes the key from an idempotencyKey query parameter and creates the connection',
    section: 'POST /api/public/v1/connections',
    catches: ['idempotency.required'],
    handle(req, next) {
      const fromQuery = req.query.idempotencyKey;
      if (!isCreation(req) || keyOf(req) !== undefined || typeof fromQuery !== 'string') return next(req);
      const { idempotencyKey: _k, idempotency_key: _k2, ...query } = req.query;
      return next({ ...withHeader(req, 'idempotency-key', fromQuery), query });
    },
  },
  {
    name: 'second-tenant-replay-conflicts',
    description:
      "for every tenant but the first, repeating a creation with its key and the same body answers 409 idempotency_conflict (the replay compares with another tenant's record)",
    section: 'POST /api/public/v1/connections',
    catches: ['idempotency.tenant-scope'],
    async handle(req, next, core) {
      const res = await next(req);
      const tenant = req.headers['x-service-tenant'];
      if (!isCreation(req) || res.status !== 200 || !tenant || tenant === (await defaultAccess(core)).tenant)
        return res;
      let replayed = false;
      editJson(res, (b) => {
        replayed = b.meta?.replayed === true;
      });
      if (!replayed) return res;
      // The call was counted: its rate-limit headers stay, only the answer is wrong.
      const conflict = failureOf('idempotency_conflict', 'The key was used with other content.');
      const limits = Object.entries(res.headers).filter(([k]) => k.startsWith('x-ratelimit-'));
      return { ...conflict, headers: { ...conflict.headers, ...Object.fromEntries(limits) } };
    },
  },
  {
    name: 'second-tenant-keyless-creation-accepted',
    description:
      "POST /connections without Idempotency-Key is accepted for every tenant but the first (the key check reads one tenant's settings)",
    section: 'POST /api/public/v1/connections',
    catches: ['idempotency.required'],
    async handle(req, next, core) {
      const tenant = req.headers['x-service-tenant'];
      if (!isCreation(req) || keyOf(req) !== undefined || !tenant || tenant === (await defaultAccess(core)).tenant)
        return next(req);
      return next(withHeader(req, 'idempotency-key', `gen-${randomBytes(8).toString('hex')}`));
    },
  },
  {
    name: 'pilot-creation-without-key-accepted',
    description:
      'POST /connections without Idempotency-Key is carried out in environment pilot (the key check reads the sandbox and production settings only)',
    section: 'POST /api/public/v1/connections',
    catches: ['idempotency.required'],
    async handle(req, next) {
      if (!isCreation(req) || keyOf(req) !== undefined || jsonBodyOf(req)?.environment !== 'pilot') return next(req);
      return next(withHeader(req, 'idempotency-key', `gen-${randomBytes(8).toString('hex')}`));
    },
  },
  {
    name: 'second-tenant-key-without-expiry',
    description:
      "POST /idempotency-keys answers every tenant of the access but the first without expiresAt (the expiry is read from the first tenant's settings, absent for the others)",
    section: 'POST /api/public/v1/idempotency-keys',
    catches: ['idempotency.key-result'],
    async handle(req, next, core) {
      const tenant = req.headers['x-service-tenant'];
      if (req.method !== 'POST' || !req.path.endsWith('/idempotency-keys') || !tenant) return next(req);
      if (tenant === (await defaultAccess(core)).tenant) return next(req);
      return editJson(await next(req), (b) => {
        if (b.data) delete b.data.expiresAt;
      });
    },
  },
  {
    name: 'conflict-fingerprint-counts-capabilities',
    description:
      'the stored content of a keyed creation counts its capabilities instead of naming them: the same key with one capability replaced (as many as before) replays the first answer',
    section: 'POST /api/public/v1/connections',
    catches: ['idempotency.conflict-capability-set'],
    async handle(req, next, core) {
      const body = jsonBodyOf(req);
      const key = keyOf(req);
      if (!isCreation(req) || !body || key === undefined || !Array.isArray(body.capabilities)) return next(req);
      const seen = fingerprints(core);
      const fingerprint = JSON.stringify({ ...body, capabilities: body.capabilities.length });
      const first = seen.get(key);
      if (first && first.fingerprint === fingerprint) return next(withJsonBody(req, first.body));
      if (!first) seen.set(key, { fingerprint, body });
      return next(req);
    },
  },
  {
    name: 'operation-with-space-refused',
    description:
      'POST /idempotency-keys refuses an operation containing a space (a metrics-label sanitiser), though the interface bounds it by length only',
    section: 'Limits',
    catches: ['limits.free-text-accepted'],
    async handle(req, next) {
      const operation = jsonBodyOf(req)?.operation;
      if (req.method !== 'POST' || !req.path.endsWith('/idempotency-keys') || typeof operation !== 'string')
        return next(req);
      if (!/\s/.test(operation)) return next(req);
      // Refused the way the service refuses an operation outside its limits (its answer, headers and all).
      return next(withJsonBody(req, { operation: 'x' }));
    },
  },
  {
    name: 'scope-label-line-break-faults',
    description:
      'POST /connections with a line break inside scopeLabel answers 500 internal (the label goes unescaped into a log line)',
    section: 'Limits',
    catches: ['limits.free-text-accepted'],
    async handle(req, next) {
      const label = jsonBodyOf(req)?.scopeLabel;
      if (!isCreation(req) || typeof label !== 'string' || !/[\r\n]/.test(label)) return next(req);
      return failureOf('internal', 'The request could not be processed.');
    },
  },
];
