import { randomBytes } from 'node:crypto';
import { LIMITS } from '../../simulator/contract/limits.ts';
import { ROUTES } from '../../simulator/contract/route-table.ts';
import { BASE_PATH } from '../../simulator/contract/versions.ts';
import type { Core, PlainRequest } from '../../simulator/index.ts';
import { editJson, errorCodeOf, failureOf, jsonBodyOf, withHeader, withJsonBody } from './json-edit.ts';
import type { Violation } from './types.ts';

const CONNECTIONS = `${BASE_PATH}/connections`;
const IDEMPOTENCY_KEYS = `${BASE_PATH}/idempotency-keys`;
/** POST paths that need an Idempotency-Key and have no path parameters. */
export const KEYED = new Set(
  ROUTES.filter((r) => r.idempotent && r.method === 'POST' && !r.path.includes('{')).map((r) => r.path),
);

export const keyOf = (req: PlainRequest) => req.headers['idempotency-key'];
export const isCreation = (req: PlainRequest) => req.method === 'POST' && req.path === CONNECTIONS;

/** Per-core memory of a violation (a sandbox's state, never shared between sandboxes). */
export function perCore<T>(make: () => T) {
  const map = new WeakMap<Core, T>();
  return (core: Core) => {
    let v = map.get(core);
    if (!v) {
      v = make();
      map.set(core, v);
    }
    return v;
  };
}
const inFlight = perCore(() => new Map<string, number>());
const firstTenant = perCore(() => new Map<string, string>());
const firstEnvironment = perCore(() => new Map<string, string>());
const firstBody = perCore(() => new Map<string, string>());

/** A body field cut back to the limit when it is exactly one over it (the classic off-by-one). */
function clampOneOver(
  req: PlainRequest,
  field: string,
  max: number,
  length: (v: unknown) => number | undefined,
  cut: (v: unknown) => unknown,
) {
  const body = jsonBodyOf(req);
  const value = body?.[field];
  return body && length(value) === max + 1 ? withJsonBody(req, { ...body, [field]: cut(value) }) : req;
}
const strLen = (v: unknown) => (typeof v === 'string' ? v.length : undefined);
const arrLen = (v: unknown) => (Array.isArray(v) ? v.length : undefined);

/** Violations of idempotency (POST /connections) and of the Limits of modifying calls. */
export const IDEMPOTENCY_VIOLATIONS: Violation[] = [
  {
    name: 'missing-key-accepted',
    description: 'a modifying call without Idempotency-Key is carried out (as if a key had been sent) instead of 428',
    section: 'POST /api/public/v1/connections',
    catches: ['idempotency.required', 'limits.idempotency-key'],
    handle(req, next) {
      const missing = req.method === 'POST' && KEYED.has(req.path) && !keyOf(req);
      return next(missing ? withHeader(req, 'idempotency-key', `implicit-${randomBytes(8).toString('hex')}`) : req);
    },
  },
  {
    name: 'replay-without-replayed',
    description: 'a replayed answer leaves out meta.replayed',
    section: 'POST /api/public/v1/connections',
    catches: [
      'idempotency.replay',
      'idempotency.tenant-scope',
      'webhooks.registration-replay',
      'connections.every-environment',
    ],
    async handle(req, next) {
      return editJson(await next(req), (b) => void (b.meta?.replayed === true && delete b.meta.replayed));
    },
  },
  {
    name: 'replay-different-data',
    description: 'a replayed answer differs from the first one (createdAt moves on)',
    section: 'POST /api/public/v1/connections',
    catches: [
      'idempotency.replay',
      'idempotency.replay-late',
      'idempotency.replay-reordered',
      'webhooks.registration-replay',
    ],
    async handle(req, next) {
      return editJson(await next(req), (b) => {
        if (b.meta?.replayed === true && typeof b.data?.createdAt === 'string')
          b.data.createdAt = new Date(Date.parse(b.data.createdAt) + 1000).toISOString();
      });
    },
  },
  {
    name: 'conflict-answered-200',
    description:
      'a key reused with a different body creates a second connection instead of answering 409 idempotency_conflict',
    section: 'POST /api/public/v1/connections',
    catches: [
      'idempotency.conflict',
      'idempotency.conflict-capability-set',
      'idempotency.replay',
      'webhooks.registration-keys',
    ],
    async handle(req, next) {
      const res = await next(req);
      return errorCodeOf(res) === 'idempotency_conflict'
        ? next(withHeader(req, 'idempotency-key', `${keyOf(req)}-again`))
        : res;
    },
  },
  {
    name: 'concurrent-duplicates',
    description:
      'concurrent calls with one key each create a connection (the key is only checked once a call has finished)',
    section: 'What the service does',
    catches: ['idempotency.concurrent'],
    async handle(req, next, core) {
      const key = keyOf(req);
      if (!isCreation(req) || !key) return next(req);
      const running = inFlight(core);
      const n = running.get(key) ?? 0;
      running.set(key, n + 1);
      try {
        return await next(n > 0 ? withHeader(req, 'idempotency-key', `${key}-dup-${n}`) : req);
      } finally {
        const left = (running.get(key) ?? 1) - 1;
        if (left > 0) running.set(key, left);
        else running.delete(key);
      }
    },
  },
  {
    name: 'idempotency-keys-global',
    description: "keys are not scoped per tenant: another tenant reusing a key gets the first tenant's connection",
    section: 'POST /api/public/v1/connections',
    catches: ['idempotency.tenant-scope'],
    handle(req, next, core) {
      const key = keyOf(req);
      const tenant = req.headers['x-service-tenant'];
      if (!isCreation(req) || !key || !tenant) return next(req);
      const seen = firstTenant(core);
      const first = seen.get(key);
      if (first === undefined) seen.set(key, tenant);
      return next(first !== undefined && first !== tenant ? withHeader(req, 'x-service-tenant', first) : req);
    },
  },
  {
    name: 'key-scoped-per-environment',
    description:
      'the key store is kept per environment: the same key with only environment changed creates a second connection; answers echo the key as sent',
    section: 'POST /api/public/v1/connections',
    catches: ['idempotency.conflict'],
    async handle(req, next, core) {
      const key = keyOf(req);
      const environment = jsonBodyOf(req)?.environment;
      if (!isCreation(req) || !key || typeof environment !== 'string') return next(req);
      const seen = firstEnvironment(core);
      const first = seen.get(key);
      if (first === undefined) seen.set(key, environment);
      if (first === undefined || first === environment) return next(req);
      // Another environment's store: the key as if new there (a short suffix keeps it within the pattern).
      const scoped = `${key.slice(0, 100)}.${environment}`;
      return editJson(await next(withHeader(req, 'idempotency-key', scoped)), (b) => {
        if (b.meta?.idempotencyKey === scoped) b.meta.idempotencyKey = key;
      });
    },
  },
  {
    name: 'keyed-capability-replay-conflicts',
    description:
      'a replay of a creation booking a capability marked idempotencyRequired answers 409 idempotency_conflict (the key store compares its own copy of the booked flags)',
    section: 'POST /api/public/v1/connections',
    catches: ['connections.capability-kinds'],
    async handle(req, next, core) {
      const res = await next(req);
      const booked = jsonBodyOf(req)?.capabilities;
      if (!isCreation(req) || res.status !== 200 || !Array.isArray(booked)) return res;
      const keyed = new Set(core.state.fixtures.capabilities.filter((c) => c.idempotencyRequired).map((c) => c.id));
      let replayed = false;
      editJson(res, (b) => {
        replayed = b.meta?.replayed === true;
      });
      if (!replayed || !booked.some((c) => keyed.has(String(c)))) return res;
      const conflict = failureOf('idempotency_conflict', 'the key was used with other content');
      // The rate-limit headers of the call stay: only the answer is wrong.
      const limits = Object.entries(res.headers).filter(([k]) => k.startsWith('x-ratelimit-'));
      return { ...conflict, headers: { ...conflict.headers, ...Object.fromEntries(limits) } };
    },
  },
  {
    name: 'key-cut-at-colon',
    description:
      'the key store keeps a key only up to its first colon (run:1 and run:2 are one key); answers echo the key as sent',
    section: 'Limits',
    catches: ['idempotency.key-compared-whole', 'idempotency.fresh-key-no-conflict'],
    async handle(req, next) {
      const key = keyOf(req);
      const cut = key?.split(':')[0];
      if (!isCreation(req) || !key || !cut || cut === key || cut.length < 8) return next(req);
      return editJson(await next(withHeader(req, 'idempotency-key', cut)), (b) => {
        if (b.meta?.idempotencyKey === cut) b.meta.idempotencyKey = key;
      });
    },
  },
  {
    name: 'content-compared-as-bytes',
    description:
      'a key is bound to the bytes of its first body: the same JSON with members in another order is a conflict',
    section: 'POST /api/public/v1/connections',
    catches: ['idempotency.replay-reordered'],
    handle(req, next, core) {
      const key = keyOf(req);
      if (!isCreation(req) || !key || !req.body) return next(req);
      const text = new TextDecoder().decode(req.body);
      const seen = firstBody(core);
      const first = seen.get(key);
      if (first === undefined) seen.set(key, text);
      const body = jsonBodyOf(req);
      // Other bytes: sent on as other content, so the service itself answers its conflict.
      return next(
        first !== undefined && first !== text && body
          ? withJsonBody(req, { ...body, scopeLabel: `${body.scopeLabel} ` })
          : req,
      );
    },
  },
  {
    name: 'replay-rereads-stored-row',
    description: 'a replay serialises the stored connection anew: its capabilities come back sorted by name',
    section: 'POST /api/public/v1/connections',
    catches: ['idempotency.replay-late', 'idempotency.replay-reordered', 'connections.capability-kinds'],
    async handle(req, next) {
      return editJson(await next(req), (b) => {
        const caps = b.data?.capabilities;
        if (isCreation(req) && b.meta?.replayed === true && Array.isArray(caps))
          caps.sort((x, y) =>
            String((x as { capability?: unknown }).capability).localeCompare(
              String((y as { capability?: unknown }).capability),
            ),
          );
      });
    },
  },
  {
    name: 'scope-label-off-by-one',
    description: `a scopeLabel of ${LIMITS.scopeLabel.max + 1} characters is accepted (the limit is ${LIMITS.scopeLabel.min} to ${LIMITS.scopeLabel.max})`,
    section: 'Limits',
    catches: ['limits.scope-label-length'],
    handle(req, next) {
      return next(
        isCreation(req)
          ? clampOneOver(req, 'scopeLabel', LIMITS.scopeLabel.max, strLen, (v) => (v as string).slice(0, -1))
          : req,
      );
    },
  },
  {
    name: 'capabilities-over-limit',
    description: `a connection with ${LIMITS.connectionCapabilities.maxItems + 1} capabilities is accepted (the limit is ${LIMITS.connectionCapabilities.maxItems})`,
    section: 'Limits',
    catches: ['limits.connection-capabilities'],
    handle(req, next) {
      return next(
        isCreation(req)
          ? clampOneOver(req, 'capabilities', LIMITS.connectionCapabilities.maxItems, arrLen, (v) =>
              (v as unknown[]).slice(0, -1),
            )
          : req,
      );
    },
  },
  {
    name: 'operation-off-by-one',
    description: `an operation of ${LIMITS.operation.max + 1} characters gets an idempotency key (the limit is ${LIMITS.operation.max})`,
    section: 'Limits',
    catches: ['limits.operation-length'],
    handle(req, next) {
      const applies = req.method === 'POST' && req.path === IDEMPOTENCY_KEYS;
      return next(
        applies ? clampOneOver(req, 'operation', LIMITS.operation.max, strLen, (v) => (v as string).slice(0, -1)) : req,
      );
    },
  },
  {
    name: 'idempotency-key-too-long',
    description: `an Idempotency-Key of ${LIMITS.idempotencyKey.max + 1} characters is accepted (the limit is ${LIMITS.idempotencyKey.max})`,
    section: 'Limits',
    catches: ['limits.idempotency-key'],
    handle(req, next) {
      const key = keyOf(req);
      return next(
        key?.length === LIMITS.idempotencyKey.max + 1 ? withHeader(req, 'idempotency-key', key.slice(0, -1)) : req,
      );
    },
  },
];
