import type { ProxyCall, UnseenViolation } from './proxy.ts';
import { home, isCreate, P } from './proxy-helpers.ts';

/**
 * Round 27 of the unseen violations, part 2: what the deployment accepts — a lower-case `bearer`
 * scheme refused, an empty environment read as the default, the operation's length counted in bytes,
 * a 100-character scope label limit for the second tenant, scope labels with a slash refused, a key
 * fingerprint that ignores the environment, webhook keys over 64 characters refused, and a malformed
 * body of a signed-in call answered 401.
 */
type Rec = Record<string, any>;
const isCheck = (c: ProxyCall) => c.method === 'POST' && c.path === P('/capabilities');
const body = (c: ProxyCall) => (c.body && typeof c.body === 'object' && !Array.isArray(c.body) ? (c.body as Rec) : {});
const meta = () => ({
  requestId: `req_r27${Math.random().toString(36).slice(2, 12)}`,
  version: '2026-07-01',
  at: new Date().toISOString(),
});
/** A refusal answered before the simulator, with the limits the last answer reported. */
const early = (c: ProxyCall, status: number, code: string, message: string) => {
  const limits = (c.memory.get('r27-in-limits') as Record<string, string> | undefined) ?? {};
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
    c.memory.set('r27-in-limits', { 'x-ratelimit-limit': limit, 'x-ratelimit-remaining': remaining });
};

export const ROUND27_INPUTS: UnseenViolation[] = [
  {
    name: 'lowercase-bearer-scheme-refused',
    statement:
      'Authentication: Authorization — Bearer token obtained through an OAuth flow (the scheme name is case-insensitive, RFC 9110 §11.1)',
    request(c) {
      // The token middleware matches the prefix "Bearer " byte for byte.
      const auth = c.headers.authorization;
      if (!auth || !/^bearer\s/i.test(auth) || auth.startsWith('Bearer ')) return undefined;
      return early(c, 401, 'unauthorized', 'The call was not signed in.');
    },
    answer(c, a) {
      rememberLimits(c, a.headers);
    },
  },
  {
    name: 'check-empty-environment-read-as-default',
    statement:
      'POST /api/public/v1/capabilities: environment — string, no, Environment; default sandbox (invalid_request: wrong data type)',
    request(c) {
      // `body.environment || 'sandbox'` treats the empty string like a missing field.
      if (!isCheck(c) || body(c).environment !== '') return undefined;
      const { environment: _e, ...rest } = body(c);
      c.body = rest;
      return undefined;
    },
  },
  {
    name: 'operation-length-counted-in-bytes',
    statement: 'POST /api/public/v1/idempotency-keys: operation (string, required, length 2 to 80)',
    request(c) {
      // The validator checks Buffer.byteLength, so 80 characters outside ASCII are "too long".
      if (c.method !== 'POST' || c.path !== P('/idempotency-keys')) return undefined;
      const op = body(c).operation;
      if (typeof op !== 'string' || op.length > 80 || Buffer.byteLength(op, 'utf8') <= 80) return undefined;
      return early(c, 400, 'invalid_request', 'operation must be 2 to 80 characters long.');
    },
    answer(c, a) {
      rememberLimits(c, a.headers);
    },
  },
  {
    name: 'second-tenant-scope-label-limit-100',
    statement: 'Limits: scopeLabel — length 2 to 120 (for every tenant)',
    request(c) {
      // The second tenant was migrated from a system whose column is VARCHAR(100); its config carries
      // the old limit.
      const own = home(c);
      const label = body(c).scopeLabel;
      if (!isCreate(c) || !own || c.headers['x-service-tenant'] === own) return undefined;
      if (typeof label !== 'string' || label.length <= 100 || label.length > 120) return undefined;
      return early(c, 400, 'invalid_request', 'scopeLabel must be 2 to 100 characters long.');
    },
    answer(c, a) {
      rememberLimits(c, a.headers);
    },
  },
  {
    name: 'scope-label-with-slash-refused',
    statement:
      'POST /api/public/v1/connections: scopeLabel — string, length 2 to 120 (descriptive name, e.g. the name of the venue)',
    request(c) {
      // The label is later used as a path segment of the venue page, so the edge refuses "/" in it.
      const label = body(c).scopeLabel;
      if (!isCreate(c) || typeof label !== 'string' || !label.includes('/')) return undefined;
      return early(c, 400, 'invalid_request', 'scopeLabel contains a character that is not allowed.');
    },
    answer(c, a) {
      rememberLimits(c, a.headers);
    },
  },
  {
    name: 'conflict-fingerprint-ignores-environment',
    statement: 'POST /api/public/v1/connections: The same key with different content yields idempotency_conflict.',
    request(c) {
      // The fingerprint is computed over connector, label and capabilities; the environment (added to
      // the body later) was forgotten, so a changed environment replays the first answer.
      const key = c.headers['idempotency-key'];
      if (!isCreate(c) || !key) return undefined;
      const slot = `r27-env:${c.headers['x-service-tenant'] ?? ''}:${key}`;
      const first = c.memory.get(slot) as string | undefined;
      const env = body(c).environment;
      if (first === undefined) {
        if (typeof env === 'string') c.memory.set(slot, env);
      } else if (typeof env === 'string' && env !== first) c.body = { ...body(c), environment: first };
      return undefined;
    },
  },
  {
    name: 'webhooks-key-over-64-refused',
    statement:
      'Limits: Idempotency-Key — pattern ^[A-Za-z0-9._:-]{8,128}$ (POST /api/public/v1/webhooks: Headers: Idempotency-Key)',
    request(c) {
      // The webhook module has its own copy of the key validator, with the old maximum of 64.
      const key = c.headers['idempotency-key'];
      if (c.method !== 'POST' || c.path !== P('/webhooks') || !key || key.length <= 64 || key.length > 128)
        return undefined;
      return early(c, 400, 'invalid_request', 'Idempotency-Key does not match the required pattern.');
    },
    answer(c, a) {
      rememberLimits(c, a.headers);
    },
  },
  {
    name: 'malformed-body-answered-unauthorized',
    statement:
      'Errors: unauthorized 401 — call was not signed in; invalid_request 400 — request incomplete or unsuitable',
    answer(c, a) {
      // The body parser's error reaches the auth error mapper, which answers every unknown failure of a
      // pre-handler stage as "not signed in".
      if (c.method !== 'POST' || !c.headers.authorization || a.status !== 400) return;
      if (c.body !== undefined) return;
      a.status = 401;
      a.json.error = { code: 'unauthorized', message: 'The call was not signed in.' };
    },
  },
];
