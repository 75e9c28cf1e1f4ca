// Violations of a reader too lenient, or of an old path kept for old callers: a value the contract refuses taken
// after a repair (an enum's ordinal, a percent escape, an earlier version's key), a listing or a code that only
// one caller sees wrong (the earlier version's self-description, the second tenant's conflict).
import { ENVIRONMENTS } from '../../simulator/contract/environment.ts';
import { BASE_PATH, SUPPORTED_VERSIONS } from '../../simulator/contract/versions.ts';
import { defaultAccess } from './default-access.ts';
import { editJson, errorCodeOf, failureOf, jsonBodyOf, withHeader, withJsonBody } from './json-edit.ts';
import type { Violation } from './types.ts';

const CONNECTIONS = `${BASE_PATH}/connections`;
const EARLIER = SUPPORTED_VERSIONS[1] ?? '2026-06-12';
const isCreate = (req: { method: string; path: string }) => req.method === 'POST' && req.path === CONNECTIONS;

export const LENIENT_VIOLATIONS: Violation[] = [
  {
    name: 'environment-ordinal-taken',
    description:
      "a creation's environment given as a number is taken as the value at that position (an enum stored as its ordinal: 3 is production)",
    section: 'POST /api/public/v1/connections',
    // The deployment's own document does not admit the body it took either.
    catches: ['generated.probes-create-connection', 'openapi.bodies-admit-served'],
    async handle(req, next) {
      const body = jsonBodyOf(req);
      const at = body?.environment;
      if (!isCreate(req) || typeof at !== 'number' || !Number.isInteger(at) || at < 0) return next(req);
      const environment = ENVIRONMENTS[at];
      return next(environment ? withJsonBody(req, { ...body, environment }) : req);
    },
  },
  {
    name: 'idempotency-key-percent-decoded',
    description:
      'an Idempotency-Key is percent-decoded before it is checked (the header read as a URL part): "ncs%41…" is taken as "ncsA…"',
    section: 'Limits',
    catches: ['limits.idempotency-key'],
    async handle(req, next) {
      const key = req.headers['idempotency-key'];
      if (!key || !/%[0-9A-Fa-f]{2}/.test(key)) return next(req);
      try {
        return next(withHeader(req, 'idempotency-key', decodeURIComponent(key)));
      } catch {
        return next(req);
      }
    },
  },
  {
    name: 'earlier-version-key-repaired',
    description:
      'with Service-Version 2026-06-12 an Idempotency-Key outside the pattern is repaired (each other character made a hyphen, padded to 8) instead of refused',
    section: 'Limits',
    catches: ['limits.idempotency-key'],
    async handle(req, next) {
      const key = req.headers['idempotency-key'];
      if (req.headers['service-version'] !== EARLIER || !key || /^[A-Za-z0-9._:-]{8,128}$/.test(key)) return next(req);
      return next(
        withHeader(
          req,
          'idempotency-key',
          key
            .replace(/[^A-Za-z0-9._:-]/g, '-')
            .padEnd(8, '-')
            .slice(0, 128),
        ),
      );
    },
  },
  {
    name: 'earlier-self-description-omits-stream',
    description:
      'the self-description asked with Service-Version 2026-06-12 leaves the status stream out of its routes',
    section: 'Versioning',
    catches: ['versions.earlier-alike'],
    async handle(req, next) {
      const res = await next(req);
      if (req.path !== BASE_PATH || req.headers['service-version'] !== EARLIER || res.status !== 200) return res;
      return editJson(res, (b) => {
        const data = b.data as { routes?: { path?: unknown }[] } | undefined;
        if (data?.routes) data.routes = data.routes.filter((r) => r.path !== `${BASE_PATH}/stream`);
      });
    },
  },
  {
    name: 'second-tenant-conflict-coded-capability-denied',
    description:
      "for a tenant other than the first, a key reused with other content answers 409 capability_denied (that tenant's gateway maps every 409 to one code)",
    section: 'Errors',
    catches: ['idempotency.tenant-scope'],
    async handle(req, next, core) {
      const res = await next(req);
      const tenant = req.headers['x-service-tenant'];
      if (!tenant || errorCodeOf(res) !== 'idempotency_conflict') return res;
      if (tenant === (await defaultAccess(core)).tenant) return res;
      // Rewritten after the rate limiter counted the call: its headers stay.
      const refusal = failureOf('capability_denied', 'The capability is not released for this connection.');
      const { 'content-length': _length, ...counted } = res.headers;
      return { ...refusal, headers: { ...counted, ...refusal.headers } };
    },
  },
];
