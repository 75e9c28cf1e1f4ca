import { signWebhook } from '../../../simulator/contract/webhook-signature.ts';
import type { ProxyAnswer, ProxyCall, UnseenViolation } from './proxy.ts';
import { home, isCreate, P } from './proxy-helpers.ts';

/**
 * Round 5 of the unseen violations, part 4: effects and proofs — a replay whose answer is right but
 * whose effect happens again, signatures whose form or spelling slips on some deliveries, and an
 * audit proof that belongs to another tenant.
 */
interface FirstCall {
  content: string;
  data?: unknown;
}
/** The key a call was sent with, before a hook gave it a fresh one. */
const originals = new WeakMap<ProxyCall, string>();
/** Bodies signed once already: a later signature of the same body is a retry or a redelivery. */
const signedBodies = new Set<string>();
const redeliverPath = new RegExp(`^${P('/webhooks')}/[^/]+/deliveries/[^/]+/redeliver$`);

/**
 * A deployment that stores the first answer of a key and replays it, but runs the operation again
 * before it looks the key up: the answer of a repeat is the first one (replayed, same key), its
 * effect is new. Only a repeat with the same content, after the first succeeded, is run again.
 */
function answersReplayButRedoes(matches: (c: ProxyCall) => boolean): Pick<UnseenViolation, 'request' | 'answer'> {
  const slot = (c: ProxyCall, key: string) => `redo:${c.headers['x-service-tenant'] ?? ''}:${c.path}:${key}`;
  return {
    request(c) {
      const key = c.headers['idempotency-key'];
      if (c.method !== 'POST' || !matches(c) || !key) return undefined;
      const content = JSON.stringify(c.body ?? null);
      const first = c.memory.get(slot(c, key)) as FirstCall | undefined;
      if (!first) c.memory.set(slot(c, key), { content });
      else if (first.content === content && first.data !== undefined) {
        const n = Number(c.memory.get('redone') ?? 0) + 1;
        c.memory.set('redone', n);
        originals.set(c, key);
        c.headers['idempotency-key'] = `${key.slice(0, 110)}.redo${n}`;
      }
      return undefined;
    },
    answer(c, a: ProxyAnswer) {
      const key = originals.get(c) ?? c.headers['idempotency-key'];
      if (c.method !== 'POST' || !matches(c) || !key || a.status !== 200) return;
      const first = c.memory.get(slot(c, key)) as FirstCall | undefined;
      if (!first) return;
      if (!originals.has(c)) {
        if (
          first.data === undefined &&
          a.json.meta?.replayed !== true &&
          first.content === JSON.stringify(c.body ?? null)
        )
          first.data = structuredClone(a.json.data);
        return;
      }
      a.json.data = structuredClone(first.data);
      if (a.json.meta) Object.assign(a.json.meta, { idempotencyKey: key, replayed: true });
    },
  };
}

export const ROUND5_EFFECTS: UnseenViolation[] = [
  {
    name: 'replayed-creation-creates-again',
    statement:
      'What the service does: modifying calls are repeat-safe through idempotency keys (Idempotency-Key: key against double effects)',
    ...answersReplayButRedoes(isCreate),
  },
  {
    name: 'replayed-redelivery-sends-again',
    statement:
      'Versioning 2026-06-12: modifying calls require an idempotency key — a repeated re-trigger with the same key has no second effect',
    ...answersReplayButRedoes((c) => redeliverPath.test(c.path)),
  },
  {
    name: 'signature-space-after-comma',
    statement: 'Webhooks: the header value has the form t=<unix-seconds>,v1=<hex-signature>',
    sign: (body, secret, t) => signWebhook(body, secret, t).replace(',v1=', ', v1='),
  },
  {
    name: 'later-attempts-uppercase-hex',
    statement: 'Webhooks: the signature ... written as lowercase hex (on retries and redeliveries too)',
    sign(body, secret, t) {
      // The retry worker formats the digest with another helper than the first attempt does.
      const value = signWebhook(body, secret, t);
      const again = signedBodies.has(body);
      signedBodies.add(body);
      return again ? value.replace(/v1=([0-9a-f]+)/, (_m, hex: string) => `v1=${hex.toUpperCase()}`) : value;
    },
  },
  {
    name: 'audit-proof-head-of-first-tenant',
    statement: 'GET /audit-log: traceable changes of the tenant, including a proof of integrity (of that tenant)',
    answer(c, a) {
      // A chain-head cache keyed by access, not by tenant: the second tenant gets the first one's head.
      const proof = a.json.data?.proof;
      const own = home(c);
      if (c.method !== 'GET' || c.path !== P('/audit-log') || a.status !== 200 || !proof?.chainHead || !own) return;
      const slot = `audit-head:${c.headers.authorization ?? ''}`;
      if (c.headers['x-service-tenant'] === own) c.memory.set(slot, structuredClone(proof.chainHead));
      else if (c.memory.has(slot)) proof.chainHead = structuredClone(c.memory.get(slot));
    },
  },
];
