import { createHash, randomBytes } from 'node:crypto';
import { canonicalJson } from '../../../simulator/contract/canonical-json.ts';
import { signWebhook } from '../../../simulator/contract/webhook-signature.ts';
import type { ProxyAnswer, ProxyCall, UnseenViolation } from './proxy.ts';
import { P } from './proxy-helpers.ts';

/**
 * Round 15 of the unseen violations, part 4: the stream, webhooks and the audit log — a resumed stream
 * filtered by comparing numbers as text, the signature's timestamp moved to a header of its own, a
 * timestamp frozen per receiver, audit hashes that leave the request id out, a registration replay
 * that registers the receiver again, and a signing key in the answer that is not the one stored.
 */
type Rec = Record<string, any>;
const isStream = (c: ProxyCall) => c.method === 'GET' && c.path === P('/stream');
const isHooks = (c: ProxyCall) => c.method === 'POST' && c.path === P('/webhooks');
const ok = (a: ProxyAnswer) => a.status === 200 && a.json.ok === true;
const sigHeader = (h: Record<string, string>) =>
  Object.keys(h).find((k) => /^t=\d+,v1=[0-9a-f]+$/.test(h[k] ?? '')) ?? 'ncs-signature';
/** Per stream call: whether the message being written is dropped. */
const dropping = new WeakMap<ProxyCall, boolean>();
/** The timestamp each signing key was first signed at. */
const firstT = new Map<string, number>();
const sha256 = (s: string) => createHash('sha256').update(s, 'utf8').digest('hex');

export const ROUND15_CHANNELS: UnseenViolation[] = [
  {
    name: 'resume-filtered-by-text-comparison',
    statement:
      'Events: After an interruption, the client resumes without gaps by sending Last-Event-ID or the query parameter cursor (last number read)',
    stream(c, lines) {
      // The resume filter compares the stored id (a text column) with the position as text: "10" < "9".
      const from = c.search.get('cursor') ?? c.headers['last-event-id'];
      if (!isStream(c) || from === undefined || from === null || !/^\d+$/.test(from.trim())) return lines;
      const out: string[] = [];
      const parts = lines.split('\n');
      // What follows the last newline is no whole line yet ('' when the chunk ends with one).
      const tail = parts.pop() ?? '';
      for (const line of parts) {
        const id = /^id:\s*(\d+)\s*$/.exec(line)?.[1];
        if (id !== undefined) dropping.set(c, !(id > from.trim()));
        if (!dropping.get(c)) out.push(`${line}\n`);
        if (line === '' || line === '\r') dropping.set(c, false);
      }
      return out.join('') + (dropping.get(c) ? '' : tail);
    },
  },
  {
    name: 'signature-timestamp-in-own-header',
    statement: 'Webhooks: Signature rule: the header value has the form t=<unix-seconds>,v1=<hex-signature>',
    deliver(d) {
      // The sender copied another provider's layout: the timestamp travels in a separate "-Timestamp" header.
      const name = sigHeader(d.headers);
      const m = /^t=(\d+),(v1=[0-9a-f]+)$/.exec(d.headers[name] ?? '');
      if (!m) return;
      d.headers[name] = m[2] ?? '';
      d.headers[`${name}-timestamp`] = m[1] ?? '';
    },
  },
  {
    name: 'signature-timestamp-frozen-per-receiver',
    statement:
      'Webhooks: the header value has the form t=<unix-seconds>,… The receiver … rejects the delivery when the difference between t and the current time exceeds 300 seconds (t is the time of signing)',
    sign(body, secret, t) {
      // The signer is built once per receiver and keeps the timestamp of its construction.
      const t0 = firstT.get(secret) ?? t;
      firstT.set(secret, t0);
      return signWebhook(body, secret, t0);
    },
  },
  {
    name: 'audit-hash-omits-request-id',
    statement:
      'GET /api/public/v1/audit-log: Purpose: traceable changes of the tenant, including a proof of integrity (of every field of an entry)',
    answer(c, a) {
      // requestId was added to entries by a later migration; the hasher's field list was never extended.
      const entries = a.json.data?.entries as Rec[] | undefined;
      if (c.method !== 'GET' || c.path !== P('/audit-log') || !ok(a) || !Array.isArray(entries)) return;
      const tenant = c.headers['x-service-tenant'] ?? '';
      const known =
        (c.memory.get(`r15-audit:${tenant}`) as Map<number, string> | undefined) ?? new Map<number, string>();
      c.memory.set(`r15-audit:${tenant}`, known);
      const oldestFirst = [...entries].sort((x, y) => Number(x.seq) - Number(y.seq));
      for (const e of oldestFirst) {
        if (typeof e.seq !== 'number' || typeof e.hash !== 'string') continue;
        const prev = known.get(e.seq - 1);
        if (prev) e.prevHash = prev;
        const { hash: _hash, requestId: _requestId, ...rest } = e;
        e.hash = known.get(e.seq) ?? sha256(canonicalJson(rest));
        known.set(e.seq, e.hash);
      }
      const proof = a.json.data?.proof as Rec | undefined;
      const oldest = oldestFirst[0];
      const newest = oldestFirst[oldestFirst.length - 1];
      if (!proof || !oldest || !newest) return;
      proof.anchorPrevHash = oldest.prevHash;
      proof.headHash = newest.hash;
      if (proof.chainHead && known.has(proof.chainHead.seq)) proof.chainHead.hash = known.get(proof.chainHead.seq);
    },
  },
  {
    name: 'webhook-registration-replay-registers-again',
    statement:
      'What the service does: Modifying calls are repeat-safe through idempotency keys (Authentication: Idempotency-Key … key against double effects) — POST /api/public/v1/webhooks',
    request(c) {
      // The registration handler stores its answer for replays but inserts the receiver before looking the key up.
      const key = c.headers['idempotency-key'];
      const first = c.memory.get(`r15-hook:${c.headers['x-service-tenant']}:${key}`) as
        | { body: string; answer: ProxyAnswer }
        | undefined;
      if (!isHooks(c) || !key || !first || first.body !== JSON.stringify(c.body)) return undefined;
      c.headers['idempotency-key'] = `${key.slice(0, 100)}.again.${randomBytes(4).toString('hex')}`;
      c.memory.set('r15-hook-replay', c);
      return undefined;
    },
    answer(c, a) {
      const key = c.headers['idempotency-key'];
      if (!isHooks(c) || !ok(a) || !key) return;
      if (c.memory.get('r15-hook-replay') === c) {
        const original = key.replace(/\.again\.[0-9a-f]{8}$/, '');
        const first = c.memory.get(`r15-hook:${c.headers['x-service-tenant']}:${original}`) as { answer: ProxyAnswer };
        c.headers['idempotency-key'] = original;
        const meta = a.json.meta as Rec;
        a.json = structuredClone(first.answer.json);
        a.json.meta = { ...meta, idempotencyKey: original, replayed: true };
        return;
      }
      if (a.json.meta?.replayed !== true)
        c.memory.set(`r15-hook:${c.headers['x-service-tenant']}:${key}`, {
          body: JSON.stringify(c.body),
          answer: structuredClone(a),
        });
    },
  },
  {
    name: 'signing-key-answered-not-stored',
    statement:
      'POST /api/public/v1/webhooks: The signing key is issued exactly once in the response and must be stored at once (Webhooks: the HMAC is keyed with the signing key)',
    answer(c, a) {
      // The answer is rendered from the model before the ORM's default generator replaced the key on save.
      const d = a.json.data as Rec | undefined;
      if (!isHooks(c) || !ok(a) || !d) return;
      for (const k of ['signingSecret', 'signingKey', 'secret'])
        if (typeof d[k] === 'string') {
          const seen = c.memory.get(`r15-shown:${d[k]}`) as string | undefined;
          const shown = seen ?? `whsec_${randomBytes(32).toString('base64url')}`;
          c.memory.set(`r15-shown:${d[k]}`, shown);
          d[k] = shown;
        }
    },
  },
];
