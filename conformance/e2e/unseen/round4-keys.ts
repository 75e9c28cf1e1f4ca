import type { ProxyAnswer, ProxyCall, UnseenViolation } from './proxy.ts';
import { isCreate, P } from './proxy-helpers.ts';

/**
 * Round 4 of the unseen violations, part 1: idempotency keys that a deployment remembers, compares or
 * issues subtly wrong — only after a while, only after a replay, only past 64 characters, only by
 * content. Each rewrites what the simulator is sent and gives the caller back the key it sent, so the
 * answer looks like the caller's own.
 */
const tenantKey = (c: ProxyCall, key: string) => `${c.headers['x-service-tenant'] ?? ''}:${key}`;

/** The key each call sent, before a hook changed it, so the answer can report it again. */
const sentKeys = new WeakMap<ProxyCall, string>();
const rekey = (c: ProxyCall, key: string) => {
  const sent = c.headers['idempotency-key'];
  if (sent) sentKeys.set(c, sent);
  c.headers['idempotency-key'] = key.slice(0, 128);
};
const restoreKey = (c: ProxyCall, a: ProxyAnswer) => {
  const sent = sentKeys.get(c);
  if (sent && typeof a.json.meta?.idempotencyKey === 'string') a.json.meta.idempotencyKey = sent;
};

export const ROUND4_KEYS: UnseenViolation[] = [
  {
    name: 'keys-truncated-to-64',
    statement:
      'Limits: Idempotency-Key pattern ^[A-Za-z0-9._:-]{8,128}$ (8 to 128 characters: all of them are the key)',
    request(c) {
      const key = c.headers['idempotency-key'];
      if (key && key.length > 64) rekey(c, key.slice(0, 64));
      return undefined;
    },
    answer: restoreKey,
  },
  {
    name: 'same-content-new-key-conflict',
    statement: 'Errors: idempotency_conflict | 409 | same idempotency key with different content (not a new key)',
    request(c) {
      const key = c.headers['idempotency-key'];
      if (!isCreate(c) || !key || !c.body || typeof c.body !== 'object') return undefined;
      // A deployment that deduplicates by content: a body seen before under another key is sent on
      // under that key with a changed label, so the simulator itself answers the conflict.
      const content = `${c.headers['x-service-tenant']}:${JSON.stringify(c.body)}`;
      const first = c.memory.get(`content:${content}`) as string | undefined;
      if (!first) c.memory.set(`content:${content}`, key);
      else if (first !== key) {
        const b = c.body as Record<string, unknown>;
        const label = String(b.scopeLabel ?? 'xx');
        c.body = { ...b, scopeLabel: `${label.slice(0, -1)}${label.endsWith('x') ? 'y' : 'x'}` };
        rekey(c, first);
      }
      return undefined;
    },
    answer: restoreKey,
  },
  {
    name: 'key-forgotten-after-first-replay',
    statement:
      'POST /connections: sending the same key with the same content returns the same response again (every time)',
    request(c) {
      const key = c.headers['idempotency-key'];
      if (!isCreate(c) || !key) return undefined;
      const replayedAt = c.memory.get(`replayed:${tenantKey(c, key)}`) as number | undefined;
      // A replay cache that evicts an entry once it has served it (concurrent repeats still hit).
      if (replayedAt !== undefined && Date.now() - replayedAt > 500) rekey(c, `${key}.again`);
      return undefined;
    },
    answer(c, a) {
      const key = c.headers['idempotency-key'];
      if (isCreate(c) && key && a.json.meta?.replayed === true && !sentKeys.has(c))
        if (!c.memory.has(`replayed:${tenantKey(c, key)}`)) c.memory.set(`replayed:${tenantKey(c, key)}`, Date.now());
      restoreKey(c, a);
    },
  },
  {
    name: 'keys-forgotten-after-10s',
    statement: 'Idempotency key result: expiresAt (a key is honoured until it expires; the same key replays)',
    request(c) {
      const key = c.headers['idempotency-key'];
      if (c.method !== 'POST' || !key) return undefined;
      const first = c.memory.get(`first-use:${tenantKey(c, key)}`) as number | undefined;
      if (first === undefined) c.memory.set(`first-use:${tenantKey(c, key)}`, Date.now());
      else if (Date.now() - first > 10_000) rekey(c, `${key}.late`);
      return undefined;
    },
    answer: restoreKey,
  },
  {
    name: 'issued-keys-repeat',
    statement:
      'POST /idempotency-keys: generate an idempotency key (a new one: "use a new key for each new operation")',
    answer(c, a) {
      const d = a.json.data;
      if (c.method !== 'POST' || c.path !== P('/idempotency-keys') || a.status !== 200 || !d) return;
      const first = c.memory.get(`issued:${d.operation}`) as string | undefined;
      if (first) d.idempotencyKey = first;
      else c.memory.set(`issued:${d.operation}`, d.idempotencyKey);
    },
  },
  {
    name: 'replay-key-lowercased',
    statement: 'POST /connections: a replay answers with meta.replayed true and meta.idempotencyKey set (the key used)',
    answer(_c, a) {
      const meta = a.json.meta;
      if (meta?.replayed === true && typeof meta.idempotencyKey === 'string')
        meta.idempotencyKey = meta.idempotencyKey.toLowerCase();
    },
  },
  {
    name: 'replay-reuses-request-id',
    statement: 'Meta: requestId | identifier of this call (a replay is another call)',
    answer(c, a) {
      const key = c.headers['idempotency-key'];
      if (c.method !== 'POST' || !key || a.status !== 200 || !a.json.meta) return;
      const id = `rid:${c.path}:${tenantKey(c, key)}`;
      const first = c.memory.get(id) as string | undefined;
      if (!first) return void c.memory.set(id, a.json.meta.requestId);
      // The whole stored answer is served again, headers and all.
      if (a.json.meta.replayed === true) {
        a.json.meta.requestId = first;
        if (a.headers['x-request-id']) a.headers['x-request-id'] = first;
      }
    },
  },
  {
    name: 'webhook-replay-new-signing-key',
    statement: 'POST /webhooks (yes + key): the same key with the same content returns the same response again',
    answer(c, a) {
      const d = a.json.data;
      if (c.method === 'POST' && c.path === P('/webhooks') && a.json.meta?.replayed === true && d?.signingSecret)
        d.signingSecret = `${String(d.signingSecret).slice(0, 6)}${'f'.repeat(Math.max(8, String(d.signingSecret).length - 6))}`;
    },
  },
];
