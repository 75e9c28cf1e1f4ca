import { signWebhook } from '../../../simulator/contract/webhook-signature.ts';
import type { ProxyCall, UnseenViolation } from './proxy.ts';
import { home, isCreate, P } from './proxy-helpers.ts';
import { earlier, isSecond, type Rec } from './round44-common.ts';

/** Round 52, part 4: streams opened after writes or per version, large and escaped deliveries, audit per version, counters, tenants. */
const isStream = (c: ProxyCall) => c.method === 'GET' && c.path === P('/stream');
const REDELIVER = /^\/api\/public\/v1\/webhooks\/([^/]+)\/deliveries\/([^/]+)\/redeliver$/;
const LOG = /^\/api\/public\/v1\/webhooks\/([^/]+)\/deliveries$/;
const repeated = new WeakSet<ProxyCall>();
const HTML: Record<string, string> = { '<': '\\u003c', '>': '\\u003e', '&': '\\u0026' };

export const ROUND52_CHANNELS: UnseenViolation[] = [
  {
    name: 'stream-opened-right-after-write-repeats-newest',
    statement:
      'Events: Every message carries a consecutive number and arrives exactly once (a stream opened within two seconds of a creation)',
    answer(c, a) {
      home(c);
      if (isCreate(c) && a.status === 200) c.memory.set('r52-write', Date.now());
    },
    stream(c, lines) {
      // The backlog query and the live subscription overlap for a moment, so the newest message comes from both.
      home(c);
      const wrote = c.memory.get('r52-write') as number | undefined;
      if (!isStream(c) || repeated.has(c) || !wrote || Date.now() - wrote > 2000) return lines;
      const blocks = lines.split(/\n\n/).filter((b) => /^id: \d+$/m.test(b));
      const last = blocks.at(-1);
      if (!last) return lines;
      repeated.add(c);
      return `${lines}${lines.endsWith('\n\n') ? '' : '\n\n'}${last}\n\n`;
    },
  },
  {
    name: 'earlier-version-stream-resume-ignored',
    statement:
      'Events: After an interruption, the client resumes without gaps by sending Last-Event-ID or the query parameter cursor (a stream asked for version 2026-06-12)',
    request(c) {
      // The 2026-06-12 stream handler predates resumption and drops both positions, replaying the backlog from 1.
      home(c);
      if (!isStream(c) || !earlier(c)) return undefined;
      c.search.delete('cursor');
      delete c.headers['last-event-id'];
      return undefined;
    },
  },
  {
    name: 'signature-over-first-kilobyte-of-large-body',
    statement:
      'Webhooks: The signature is an HMAC with SHA-256 ... over the text <t>, a dot, and the unchanged raw request body (a delivery body over 1024 bytes)',
    sign(body, secret, t) {
      // The signer hashes the first buffer it is handed, and the body writer flushes in 1 KiB chunks.
      const bytes = Buffer.from(body, 'utf8');
      const part = bytes.length > 1024 ? bytes.subarray(0, 1024).toString('utf8') : body;
      return signWebhook(part, secret, t);
    },
  },
  {
    name: 'delivery-body-html-escaped-after-signing',
    statement:
      'Webhooks: The signature is an HMAC ... over <t>, a dot, and the unchanged raw request body (a delivery whose payload contains &, < or >)',
    deliver(d) {
      // The outgoing HTTP client re-marshals the JSON with an HTML-safe encoder after the body was signed.
      if (/[<>&]/.test(d.body)) d.body = d.body.replace(/[<>&]/g, (ch) => HTML[ch] ?? ch);
    },
  },
  {
    name: 'earlier-version-audit-log-without-proof',
    statement:
      'GET /api/public/v1/audit-log: traceable changes of the tenant, including a proof of integrity (the audit log asked for version 2026-06-12)',
    answer(c, a) {
      // The 2026-06-12 response serializer was written before proofs existed and drops fields it does not know.
      home(c);
      if (c.method === 'GET' && c.path === P('/audit-log') && earlier(c) && a.status === 200 && a.json.data)
        delete a.json.data.proof;
    },
  },
  {
    name: 'tenth-call-remaining-resets-to-limit',
    statement: 'Limits: X-RateLimit-Remaining (calls left in the window) (every tenth authenticated call of a tenant)',
    answer(c, a) {
      // The counter is sharded in blocks of ten, and a call opening a new block reads the fresh shard's full quota.
      home(c);
      const tenant = c.headers['x-service-tenant'];
      if (!tenant || !c.headers.authorization || !a.headers['x-ratelimit-limit']) return;
      const n = ((c.memory.get(`r52-calls:${tenant}`) as number | undefined) ?? 0) + 1;
      c.memory.set(`r52-calls:${tenant}`, n);
      if (n % 10 === 0) a.headers['x-ratelimit-remaining'] = a.headers['x-ratelimit-limit'];
    },
  },
  {
    name: 'list-right-after-other-tenants-creation-includes-it',
    statement:
      'GET /api/public/v1/connections: connections of the tenant (the second tenant’s read within two seconds of a creation by the first)',
    answer(c, a) {
      // The list cache is warmed on write under the connector's key, not the tenant's, for a short time.
      const second = isSecond(c);
      if (isCreate(c) && !second && a.status === 200 && a.json.data?.id)
        c.memory.set('r52-fresh', { at: Date.now(), con: structuredClone(a.json.data) });
      const fresh = c.memory.get('r52-fresh') as { at: number; con: Rec } | undefined;
      if (!second || c.method !== 'GET' || c.path !== P('/connections') || !fresh || Date.now() - fresh.at > 2000)
        return;
      const list = a.json.data?.connections;
      if (Array.isArray(list) && !list.some((x: Rec) => x?.id === fresh.con.id)) {
        list.unshift(structuredClone(fresh.con));
        if (typeof a.json.data.count === 'number') a.json.data.count += 1;
      }
    },
  },
  {
    name: 'delivery-log-right-after-redelivery-hides-it',
    statement:
      'Webhooks: Deliveries are recorded in a delivery log and can be triggered again on request (the log read within two seconds of a redelivery)',
    answer(c, a) {
      // A redelivery moves the entry to an in-flight queue table, and the log query reads the settled table only.
      home(c);
      const m = REDELIVER.exec(c.path);
      if (c.method === 'POST' && m && a.status === 200) c.memory.set(`r52-redo:${m[2]}`, Date.now());
      if (c.method !== 'GET' || !LOG.test(c.path) || !Array.isArray(a.json.data?.deliveries)) return;
      const kept = (a.json.data.deliveries as Rec[]).filter((d) => {
        const at = c.memory.get(`r52-redo:${d?.id}`) as number | undefined;
        return !at || Date.now() - at > 2000;
      });
      if (typeof a.json.data.count === 'number') a.json.data.count -= a.json.data.deliveries.length - kept.length;
      a.json.data.deliveries = kept;
    },
  },
];
