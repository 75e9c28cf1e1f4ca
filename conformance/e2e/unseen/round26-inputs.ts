import type { ProxyCall, UnseenViolation } from './proxy.ts';
import { home, isCreate, P, refuse } from './proxy-helpers.ts';

/**
 * Round 26 of the unseen violations, part 2: what the deployment accepts — an Environment value with
 * surrounding blanks trimmed and accepted, a production capability check refused without an
 * Idempotency-Key, the second tenant's checks refused without an environment, an explicit null
 * environment read as the default, and the creation after an idempotency conflict refused as a conflict too.
 */
type Rec = Record<string, any>;
const isCheck = (c: ProxyCall) => c.method === 'POST' && c.path === P('/capabilities');
const body = (c: ProxyCall) => (c.body && typeof c.body === 'object' && !Array.isArray(c.body) ? (c.body as Rec) : {});
const meta = () => ({
  requestId: `req_r26${Math.random().toString(36).slice(2, 12)}`,
  version: '2026-07-01',
  at: new Date().toISOString(),
});
/** A refusal answered by the edge before the simulator, with the limits the last answer reported. */
const early = (c: ProxyCall, status: number, code: string, message: string) => {
  const limits = (c.memory.get('r26-in-limits') as Record<string, string> | undefined) ?? {};
  return {
    status,
    headers: { 'content-type': 'application/json; charset=utf-8', ...limits },
    json: { ok: false, error: { code, message }, meta: meta() },
  };
};
const rememberLimits = (c: ProxyCall, headers: Record<string, string>) => {
  const limit = headers['x-ratelimit-limit'];
  const remaining = headers['x-ratelimit-remaining'];
  if (limit && remaining)
    c.memory.set('r26-in-limits', { 'x-ratelimit-limit': limit, 'x-ratelimit-remaining': remaining });
};

export const ROUND26_INPUTS: UnseenViolation[] = [
  {
    name: 'environment-surrounding-blanks-trimmed',
    statement:
      'Environment (enumeration): development, sandbox, pilot, production (POST /connections: environment — Environment; invalid_request: wrong data type)',
    request(c) {
      // A body-normalising middleware trims every string before validation, so " production " passes
      // the enumeration and is stored as production.
      if (!(isCreate(c) || isCheck(c))) return undefined;
      const b = body(c);
      if (typeof b.environment === 'string' && b.environment.trim() !== b.environment && b.environment.trim())
        c.body = { ...b, environment: b.environment.trim() };
      return undefined;
    },
  },
  {
    name: 'production-check-demands-idempotency-key',
    statement:
      'Endpoints: | POST | /api/public/v1/capabilities | yes | check a capability of a connector | (Auth "yes", not "yes + key"; Idempotency-Key: on modifying calls)',
    request(c) {
      // The "production safety" guard of writes was mounted on the check route as well: a production
      // check without a key is refused 428.
      if (!isCheck(c) || body(c).environment !== 'production' || c.headers['idempotency-key']) return undefined;
      return early(c, 428, 'idempotency_required', 'An Idempotency-Key header is required for this call.');
    },
    answer(c, a) {
      rememberLimits(c, a.headers);
    },
  },
  {
    name: 'second-tenant-check-without-environment-refused',
    statement: 'POST /api/public/v1/capabilities: environment — string, not required; Environment; default sandbox',
    answer(c, a) {
      // Tenants onboarded after the first have no "default environment" setting, and the check refuses
      // instead of falling back to sandbox.
      const tenant = c.headers['x-service-tenant'];
      const own = home(c);
      if (!isCheck(c) || a.status !== 200 || !tenant || !own || tenant === own) return;
      if (body(c).environment !== undefined) return;
      refuse(a, 400, 'invalid_request', 'The request is incomplete.', 'environment is required');
    },
  },
  {
    name: 'check-environment-null-read-as-default',
    statement:
      'POST /api/public/v1/capabilities: environment — string, not required; Environment; default sandbox (invalid_request — 400: wrong data type)',
    request(c) {
      // The handler reads the field with `body.environment ?? 'sandbox'`, so an explicit null passes as
      // "left out" instead of being refused as the wrong type.
      if (!isCheck(c)) return undefined;
      const b = body(c);
      if (!('environment' in b) || b.environment !== null) return undefined;
      const { environment: _dropped, ...rest } = b;
      c.body = rest;
      return undefined;
    },
  },
  {
    name: 'conflict-blocks-tenants-next-creation',
    statement:
      'Errors: idempotency_conflict — same idempotency key with different content ... remedy: use a new key for each new operation',
    request(c) {
      // After a conflict the tenant's write lock is not released until the lock times out; the next
      // creation, with a fresh key, is refused as a conflict as well.
      if (!isCreate(c)) return undefined;
      const tenant = c.headers['x-service-tenant'] ?? '';
      const blocked = c.memory.get(`r26-blocked:${tenant}`) as string | undefined;
      const key = c.headers['idempotency-key'];
      if (blocked === undefined || !key || key === blocked) return undefined;
      c.memory.delete(`r26-blocked:${tenant}`);
      return early(c, 409, 'idempotency_conflict', 'The same idempotency key was used with different content.');
    },
    answer(c, a) {
      rememberLimits(c, a.headers);
      if (isCreate(c) && a.status === 409 && a.json.error?.code === 'idempotency_conflict')
        c.memory.set(`r26-blocked:${c.headers['x-service-tenant'] ?? ''}`, c.headers['idempotency-key'] ?? '');
    },
  },
];
