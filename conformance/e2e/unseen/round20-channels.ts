import { createHmac } from 'node:crypto';
import type { ProxyCall, UnseenViolation } from './proxy.ts';
import { P } from './proxy-helpers.ts';

/**
 * Round 20 of the unseen violations, part 4: the stream, webhook signatures and the audit log — stream
 * ids written with a trailing space, a resumed backlog sent newest first, signatures keyed with the
 * key's UTF-16 bytes, t and v1 separated by a semicolon, the audit proof's hashes in upper case, and the
 * newest audit entry's hash still "pending", and a second tenant's remaining calls that never go down.
 */
type Rec = Record<string, any>;
const isStream = (c: ProxyCall) => c.method === 'GET' && c.path === P('/stream');
const isAudit = (c: ProxyCall) => c.method === 'GET' && c.path === P('/audit-log');
const resuming = (c: ProxyCall) => c.search.has('cursor') || c.headers['last-event-id'] !== undefined;
const mac = (key: string | Buffer, text: string) => createHmac('sha256', key).update(text, 'utf8').digest('hex');
const hex = /^[0-9a-f]{16,}$/;

export const ROUND20_CHANNELS: UnseenViolation[] = [
  {
    name: 'stream-id-trailing-space',
    statement:
      'Events: Every message carries a consecutive number — the client resumes ... by sending Last-Event-ID (last number read)',
    stream(c, lines) {
      // The id line is rendered by a template that pads fields with a space; SSE keeps it in the id.
      if (!isStream(c)) return lines;
      return lines.replace(/^id: ?(\d+)$/gm, 'id: $1 ');
    },
  },
  {
    name: 'resumed-backlog-newest-first',
    statement:
      'Events: After an interruption, the client resumes without gaps by sending Last-Event-ID or the query parameter cursor (last number read) — every message carries a consecutive number',
    stream(c, lines) {
      // The backlog is read from the store with ORDER BY seq DESC (the audit view's query) and sent as read.
      if (!isStream(c) || !resuming(c)) return lines;
      const events = lines.split(/\n\n/);
      // Only whole messages (an id and a data line) are reordered; a partial one at the chunk's end stays.
      const whole = (e: string) => /^id: ?\d+/m.test(e) && /^data:/m.test(e);
      const numbered = events.filter(whole);
      if (numbered.length < 2) return lines;
      const reversed = [...numbered].reverse();
      let i = 0;
      return events.map((e) => (whole(e) ? (reversed[i++] ?? e) : e)).join('\n\n');
    },
  },
  {
    name: 'signature-keyed-with-utf16-key',
    statement: 'Webhooks: The signature is an HMAC with SHA-256, keyed with the signing key',
    sign(body, secret, t) {
      // The signer passes the key through a Windows-era helper that encodes strings as UTF-16LE bytes.
      return `t=${t},v1=${mac(Buffer.from(secret, 'utf16le'), `${t}.${body}`)}`;
    },
  },
  {
    name: 'signature-parts-semicolon-separated',
    statement: 'Webhooks: the header value has the form t=<unix-seconds>,v1=<hex-signature>',
    sign(body, secret, t) {
      // The header is built with the cookie-attribute formatter, which joins pairs with a semicolon.
      return `t=${t};v1=${mac(secret, `${t}.${body}`)}`;
    },
  },
  {
    name: 'audit-proof-hashes-uppercase',
    statement: 'GET /api/public/v1/audit-log: Purpose: traceable changes of the tenant, including a proof of integrity',
    answer(c, a) {
      // The proof block is rendered by a report helper that upper-cases hex digests for readability.
      const proof = a.json.data?.proof as Rec | undefined;
      if (!isAudit(c) || a.status !== 200 || !proof || typeof proof !== 'object') return;
      const up = (o: Rec) => {
        for (const [k, v] of Object.entries(o)) {
          if (typeof v === 'string' && hex.test(v)) o[k] = v.toUpperCase();
          else if (v && typeof v === 'object') up(v as Rec);
        }
      };
      up(proof);
    },
  },
  {
    name: 'audit-newest-entry-hash-pending',
    statement: 'GET /api/public/v1/audit-log: Purpose: traceable changes of the tenant, including a proof of integrity',
    answer(c, a) {
      // Hashes are filled in by a background job, so the entry written last is served before it ran.
      const entries = a.json.data?.entries as Rec[] | undefined;
      if (!isAudit(c) || a.status !== 200 || !Array.isArray(entries) || entries.length === 0) return;
      const newest = entries.reduce((x, y) => (Number(y.seq) > Number(x.seq) ? y : x));
      if (typeof newest.hash === 'string') newest.hash = 'pending';
    },
  },
  {
    name: 'other-tenant-remaining-never-decreases',
    statement:
      'Limits: Rate limits are configured per access, per tenant and per environment — X-RateLimit-Remaining (calls left in the window)',
    answer(c, a) {
      // The limiter's key for tenants after the first is built from an empty field, so their counter is
      // never written and Remaining is always reported as the full limit.
      const tenant = c.headers['x-service-tenant'];
      if (!c.headers.authorization || !tenant) return;
      if (!c.memory.has('r20-first-tenant')) c.memory.set('r20-first-tenant', tenant);
      if (c.memory.get('r20-first-tenant') === tenant) return;
      const limit = a.headers['x-ratelimit-limit'];
      if (limit !== undefined && a.headers['x-ratelimit-remaining'] !== undefined)
        a.headers['x-ratelimit-remaining'] = limit;
    },
  },
];
