import { signWebhook } from '../../../simulator/contract/webhook-signature.ts';
import type { ProxyCall, UnseenViolation } from './proxy.ts';
import { P } from './proxy-helpers.ts';

/**
 * Round 14 of the unseen violations, part 3: the stream, webhook deliveries and the audit log — a
 * resume naming both positions sent its backlog twice, a cursor beyond the newest number read as a
 * fresh start, signatures over the event name as well, deliveries carrying the signing key, two audit
 * entries chained from the same parent, and a proof that names the wrong hash algorithm.
 */
type Rec = Record<string, any>;
const isStream = (c: ProxyCall) => c.method === 'GET' && c.path === P('/stream');
const isAudit = (c: ProxyCall) => c.method === 'GET' && c.path === P('/audit-log');
/** Stream calls whose first numbered chunk has gone out. */
const firstSent = new WeakSet<ProxyCall>();
/** The signing key each delivery body was signed with (kept by the `sign` hook). */
const keyOfBody = new Map<string, string>();
const sigHeader = (h: Record<string, string>) =>
  Object.keys(h).find((k) => /^t=\d+,v1=[0-9a-f]+$/.test(h[k] ?? '')) ?? 'ncs-signature';

export const ROUND14_CHANNELS: UnseenViolation[] = [
  {
    name: 'both-resume-positions-backlog-twice',
    statement: 'Events: Status stream: Every message carries a consecutive number and arrives exactly once.',
    stream(c, lines) {
      // Cursor and Last-Event-ID each start a backlog reader; both write to the same connection.
      if (!isStream(c) || c.search.get('cursor') === null || c.headers['last-event-id'] === undefined) return lines;
      if (firstSent.has(c) || !/^id:/m.test(lines)) return lines;
      firstSent.add(c);
      return `${lines}${lines.endsWith('\n') ? '' : '\n'}${lines}`;
    },
  },
  {
    name: 'cursor-beyond-newest-restarts-from-one',
    statement:
      'Events: After an interruption, the client resumes without gaps by sending Last-Event-ID or the query parameter cursor (last number read) — nothing read is sent again',
    request(c) {
      // A position the log does not know yet is treated as "unknown", and unknown positions replay from the start.
      if (!isStream(c)) return undefined;
      const newest = (c.memory.get('r14-newest') as number | undefined) ?? 0;
      const cursor = c.search.get('cursor');
      if (cursor !== null && /^\d+$/.test(cursor) && Number(cursor) > newest) c.search.set('cursor', '0');
      const last = c.headers['last-event-id'];
      if (last !== undefined && /^\d+$/.test(last.trim()) && Number(last) > newest) c.headers['last-event-id'] = '0';
      return undefined;
    },
    stream(c, lines) {
      if (isStream(c))
        for (const m of lines.matchAll(/^id:\s*(\d+)/gm)) {
          const n = Number(m[1]);
          if (n > ((c.memory.get('r14-newest') as number | undefined) ?? 0)) c.memory.set('r14-newest', n);
        }
      return lines;
    },
  },
  {
    name: 'signature-covers-event-name',
    statement:
      'Webhooks: The signature is an HMAC with SHA-256, keyed with the signing key, over the text <t>, a dot, and the unchanged raw request body',
    deliver(d, resign) {
      // The signer follows an older internal scheme that binds the event name: HMAC over "<t>.<event>.<body>".
      const name = sigHeader(d.headers);
      const t = /t=(\d+)/.exec(d.headers[name] ?? '')?.[1];
      let event = 'event';
      try {
        const parsed = JSON.parse(d.body) as Rec;
        event = String(parsed.type ?? parsed.event ?? parsed.name ?? 'event');
      } catch {}
      if (t) d.headers[name] = resign(`${event}.${d.body}`, Number(t));
    },
  },
  {
    name: 'delivery-carries-signing-key',
    statement:
      'POST /api/public/v1/webhooks: The signing key is issued exactly once in the response and must be stored at once.',
    sign(body, secret, t) {
      keyOfBody.set(body, secret);
      return signWebhook(body, secret, t);
    },
    deliver(d, resign) {
      // A debugging aid left in the payload builder adds the receiver's key so support can verify by hand.
      const secret = keyOfBody.get(d.body);
      if (!secret) return;
      let parsed: Rec;
      try {
        parsed = JSON.parse(d.body) as Rec;
      } catch {
        return;
      }
      if (!parsed || typeof parsed !== 'object' || Array.isArray(parsed)) return;
      d.body = JSON.stringify({ ...parsed, verification: { signingKey: secret } });
      const name = sigHeader(d.headers);
      const t = /t=(\d+)/.exec(d.headers[name] ?? '')?.[1];
      d.headers[name] = resign(d.body, t ? Number(t) : undefined);
    },
  },
  {
    name: 'audit-chain-forks-on-concurrent-writes',
    statement: 'GET /api/public/v1/audit-log: Purpose: traceable changes of the tenant, including a proof of integrity',
    answer(c, a) {
      // The writer reads the previous hash from a lagging replica, so the newest entry chains from its sibling's parent.
      if (!isAudit(c) || a.status !== 200) return;
      const entries = a.json.data?.entries as Rec[] | undefined;
      if (!Array.isArray(entries) || entries.length < 2) return;
      const [newest, older] = entries as [Rec, Rec];
      if (typeof older.prevHash === 'string') newest.prevHash = older.prevHash;
    },
  },
  {
    name: 'audit-proof-algorithm-mislabelled',
    statement:
      'GET /api/public/v1/audit-log: Purpose: traceable changes of the tenant, including a proof of integrity (the proof names how to verify it)',
    answer(c, a) {
      // The proof's algorithm label comes from a configuration default that predates the move to SHA-256.
      const proof = a.json.data?.proof as Rec | undefined;
      if (isAudit(c) && a.status === 200 && proof && typeof proof.algorithm === 'string') proof.algorithm = 'sha1';
    },
  },
];
