import { ENVIRONMENTS } from '../../../simulator/contract/environment.ts';
import type { ProxyAnswer, ProxyCall, UnseenViolation } from './proxy.ts';
import { isCreate, P } from './proxy-helpers.ts';
import { bodyOf, failure, rememberLimits, sortedText } from './round6-support.ts';

/**
 * Round 8 of the unseen violations, part 2: idempotency keys and what they guard — keys kept per
 * environment, keys forgotten after a conflict, issued keys required for capabilities that need
 * them, issued keys namespaced past the pattern, the issuing call reporting the new key as its own,
 * replays of creations with such capabilities refused, and a body normalised before validation.
 */
type Rec = Record<string, unknown>;
const tenantOf = (c: ProxyCall) => c.headers['x-service-tenant'] ?? '';
const isIssue = (c: ProxyCall) => c.method === 'POST' && c.path === P('/idempotency-keys');
/** The key a call was sent with, before a hook sent another one on. */
const sentKey = new WeakMap<ProxyCall, string>();
const keyOf = (c: ProxyCall) => sentKey.get(c) ?? c.headers['idempotency-key'];

/** Sends the call on under another key; its answer reports the key the caller sent. */
function sendUnder(c: ProxyCall, alias: string) {
  const key = c.headers['idempotency-key'];
  if (!key) return;
  sentKey.set(c, key);
  c.headers['idempotency-key'] = alias;
}
function reportSentKey(c: ProxyCall, a: ProxyAnswer) {
  const key = sentKey.get(c);
  if (key && a.json.meta && typeof a.json.meta === 'object' && 'idempotencyKey' in a.json.meta)
    a.json.meta.idempotencyKey = key;
}

/** Capabilities the catalog marks idempotencyRequired, as the deployment's own catalog read lists them. */
function rememberKeyed(c: ProxyCall, a: ProxyAnswer) {
  const list = a.json.data?.capabilities;
  if (c.method !== 'GET' || c.path !== P('/capabilities') || !Array.isArray(list)) return;
  const keyed = new Set<string>((c.memory.get('keyed') as Set<string> | undefined) ?? []);
  for (const x of list as Rec[]) if (x.idempotencyRequired === true) keyed.add(String(x.id));
  c.memory.set('keyed', keyed);
}
const needsKeys = (c: ProxyCall) => {
  const keyed = c.memory.get('keyed') as Set<string> | undefined;
  const caps = bodyOf(c)?.capabilities;
  return !!keyed && Array.isArray(caps) && caps.some((x) => keyed.has(String(x)));
};

export const ROUND8_KEYS: UnseenViolation[] = [
  {
    name: 'key-scoped-per-environment',
    statement:
      'POST /api/public/v1/connections: the same key with different content yields idempotency_conflict (content differing only in environment too)',
    request(c) {
      // Keys are stored per environment, like the rate limits ("per access, per tenant and per environment").
      const key = c.headers['idempotency-key'];
      const env = bodyOf(c)?.environment;
      if (!isCreate(c) || !key || typeof env !== 'string' || !(ENVIRONMENTS as readonly string[]).includes(env))
        return undefined;
      const slot = `env-of:${tenantOf(c)}:${key}`;
      const first = c.memory.get(slot) as string | undefined;
      if (first === undefined) c.memory.set(slot, env);
      else if (first !== env) sendUnder(c, `${key.slice(0, 110)}.env-${env}`);
      return undefined;
    },
    answer: reportSentKey,
  },
  {
    name: 'key-forgotten-after-conflict',
    statement:
      'POST /api/public/v1/connections: sending the same key with the same content returns the same response again (after an idempotency_conflict of that key too)',
    request(c) {
      // The conflict handler deletes the stored record "so the client can start over".
      const key = c.headers['idempotency-key'];
      const round = key ? (c.memory.get(`forgotten:${tenantOf(c)}:${key}`) as number | undefined) : undefined;
      if (isCreate(c) && key && round) sendUnder(c, `${key.slice(0, 110)}.f${round}`);
      return undefined;
    },
    answer(c, a) {
      reportSentKey(c, a);
      const key = keyOf(c);
      if (!isCreate(c) || !key || a.status !== 409 || a.json.error?.code !== 'idempotency_conflict') return;
      const slot = `forgotten:${tenantOf(c)}:${key}`;
      c.memory.set(slot, ((c.memory.get(slot) as number | undefined) ?? 0) + 1);
    },
  },
  {
    name: 'keyed-capabilities-need-issued-key',
    statement:
      'Limits: Idempotency-Key | pattern ^[A-Za-z0-9._:-]{8,128}$ (any key of the pattern; none has to be issued by POST /idempotency-keys)',
    request(c) {
      // Capabilities with idempotencyRequired true were wired to a stricter check that looks the key up among issued ones.
      const key = c.headers['idempotency-key'];
      const issued = c.memory.get(`issued:${tenantOf(c)}`) as Set<string> | undefined;
      if (!isCreate(c) || !key || !needsKeys(c) || issued?.has(key)) return undefined;
      return failure(c, 400, 'invalid_request', 'This capability needs a key from POST /idempotency-keys.');
    },
    answer(c, a) {
      rememberLimits(c, a);
      rememberKeyed(c, a);
      const key = a.json.data?.idempotencyKey;
      if (!isIssue(c) || a.status !== 200 || typeof key !== 'string') return;
      const slot = `issued:${tenantOf(c)}`;
      c.memory.set(slot, new Set([...((c.memory.get(slot) as Set<string> | undefined) ?? []), key]));
    },
  },
  {
    name: 'keyed-capability-replay-conflicts',
    statement:
      'POST /api/public/v1/connections: sending the same key with the same content returns the same response again (a connection with a capability whose idempotencyRequired is true too)',
    request(c) {
      // The stored fingerprint of such creations includes a grant reference added after validation, so a repeat never matches it.
      const key = c.headers['idempotency-key'];
      if (!isCreate(c) || !key || !needsKeys(c)) return undefined;
      const slot = `keyed-first:${tenantOf(c)}:${key}`;
      if (!c.memory.has(slot)) return undefined;
      return failure(c, 409, 'idempotency_conflict', 'The key was used with different content.');
    },
    answer(c, a) {
      rememberLimits(c, a);
      rememberKeyed(c, a);
      const key = c.headers['idempotency-key'];
      if (isCreate(c) && key && a.status === 200 && needsKeys(c)) c.memory.set(`keyed-first:${tenantOf(c)}:${key}`, 1);
    },
  },
  {
    name: 'issued-key-namespaced-past-pattern',
    statement:
      'POST /api/public/v1/idempotency-keys: data: idempotencyKey (string) — a key for the Idempotency-Key header, whose pattern is ^[A-Za-z0-9._:-]{8,128}$, whatever the operation (length 2 to 80)',
    answer(c, a) {
      // Issued keys are namespaced with tenant and operation, which overflows 128 characters (or the pattern) for long names.
      const d = a.json.data;
      if (!isIssue(c) || a.status !== 200 || typeof d?.idempotencyKey !== 'string' || typeof d.operation !== 'string')
        return;
      d.idempotencyKey = `${tenantOf(c)}:${d.operation}:${d.idempotencyKey}`;
    },
  },
  {
    name: 'key-issue-reports-issued-key-as-used',
    statement:
      'Meta: idempotencyKey | the key used for the call — POST /idempotency-keys is called without one, the key it issues is not the key it used',
    answer(c, a) {
      // The envelope builder reads idempotencyKey from the handler's result instead of from the request.
      const key = a.json.data?.idempotencyKey;
      if (isIssue(c) && a.status === 200 && typeof key === 'string' && a.json.meta && !c.headers['idempotency-key'])
        a.json.meta.idempotencyKey = key;
    },
  },
  {
    name: 'capabilities-deduplicated-before-limit',
    statement:
      'Limits: capabilities in connection creation | 1 to 24 items (25 items, some of them repeated, are 25 items)',
    request(c) {
      // A Set is built from the list before the schema runs, so repeated items are not counted.
      const body = bodyOf(c);
      if (!isCreate(c) || !body || !Array.isArray(body.capabilities) || body.capabilities.length <= 24)
        return undefined;
      const unique = [...new Set(body.capabilities.map((x) => (typeof x === 'string' ? x : sortedText(x))))];
      if (unique.length <= 24 && body.capabilities.every((x) => typeof x === 'string'))
        c.body = { ...body, capabilities: unique };
      return undefined;
    },
  },
  {
    name: 'environment-case-folded',
    statement:
      'POST /api/public/v1/connections: environment | string | Environment (development, sandbox, pilot, production); "the field list above is the schema"',
    request(c) {
      // The enumeration is parsed case-insensitively (an enum lookup after toLowerCase), so "Production" is taken.
      const body = bodyOf(c);
      const env = body?.environment;
      if (!isCreate(c) || !body || typeof env !== 'string' || env === env.toLowerCase()) return undefined;
      if ((ENVIRONMENTS as readonly string[]).includes(env.toLowerCase()))
        c.body = { ...body, environment: env.toLowerCase() };
      return undefined;
    },
  },
];
