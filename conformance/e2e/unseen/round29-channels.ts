import { createHash, createHmac } from 'node:crypto';
import { canonicalJson } from '../../../simulator/contract/canonical-json.ts';
import { signWebhook } from '../../../simulator/contract/webhook-signature.ts';
import type { ProxyAnswer, ProxyCall, UnseenViolation } from './proxy.ts';
import { home, P } from './proxy-helpers.ts';

/**
 * Round 29 of the unseen violations, part 4: channels — resumed streams writing the id field in
 * capitals, MACs with SHA-512 cut to 64 hex digits, a signature header prefixed with its scheme or
 * percent-encoded, audit pages one entry short of the limit, and the second tenant's audit hashes
 * computed without the tenant field.
 */
type Rec = Record<string, any>;
const tenantOf = (c: ProxyCall) => c.headers['x-service-tenant'] ?? '';
const isAudit = (c: ProxyCall, a: ProxyAnswer) => c.method === 'GET' && c.path === P('/audit-log') && a.status === 200;

export const ROUND29_CHANNELS: UnseenViolation[] = [
  {
    name: 'resumed-stream-id-field-uppercase',
    statement:
      'Events: Every message carries a consecutive number and arrives exactly once. After an interruption, the client resumes without gaps',
    stream(c, lines) {
      // The resume path has its own writer, which spells the field "ID:"; SSE field names are
      // case-sensitive, so resumed messages carry no number.
      if (c.path !== P('/stream')) return lines;
      const resumed = c.search.has('cursor') || c.headers['last-event-id'] !== undefined;
      return resumed ? lines.replace(/^id:/gm, 'ID:') : lines;
    },
  },
  {
    name: 'signature-hmac-sha512-cut-to-64',
    statement:
      'Webhooks: The signature is an HMAC with SHA-256, keyed with the signing key, over the text <t>, a dot, and the unchanged raw request body',
    sign(body, secret, t) {
      // A crypto helper defaulting to SHA-512; the hex was cut to the documented 64 digits.
      return `t=${t},v1=${createHmac('sha512', secret).update(`${t}.${body}`, 'utf8').digest('hex').slice(0, 64)}`;
    },
  },
  {
    name: 'signature-header-scheme-prefixed',
    statement: 'Webhooks: Signature rule: the header value has the form t=<unix-seconds>,v1=<hex-signature>.',
    sign(body, secret, t) {
      // Copied from an Authorization-style header writer that puts the scheme in front of the value.
      return `HMAC-SHA256 ${signWebhook(body, secret, t)}`;
    },
  },
  {
    name: 'signature-header-percent-encoded',
    statement: 'Webhooks: Signature rule: the header value has the form t=<unix-seconds>,v1=<hex-signature>.',
    sign(body, secret, t) {
      // The header value passes through a URL-encoding helper meant for query strings.
      return encodeURIComponent(signWebhook(body, secret, t));
    },
  },
  {
    name: 'audit-page-one-short-of-limit',
    statement: 'GET /api/public/v1/audit-log: Query: limit (number of entries)',
    answer(c, a) {
      // The page query uses "seq > oldest" where it meant ">=": a full page loses its oldest entry.
      if (!isAudit(c, a)) return;
      const limit = Number(c.search.get('limit'));
      const data = a.json.data as Rec | undefined;
      const entries = data?.entries as Rec[] | undefined;
      if (!data || !Array.isArray(entries) || !(limit > 1) || entries.length !== limit) return;
      const oldest = entries.reduce((m, e) => (e.seq < m.seq ? e : m));
      data.entries = entries.filter((e) => e !== oldest);
      const next = (data.entries as Rec[]).reduce((m, e) => (e.seq < m.seq ? e : m));
      if (data.proof) {
        data.proof.fromSeq = next.seq;
        data.proof.anchorPrevHash = next.prevHash;
      }
      if (typeof data.count === 'number') data.count = data.entries.length;
    },
  },
  {
    name: 'audit-second-tenant-hashes-omit-tenant',
    statement:
      'GET /api/public/v1/audit-log: Purpose: traceable changes of the tenant, including a proof of integrity (for every tenant)',
    answer(c, a) {
      // Tenants added after the first are written by a newer writer that hashes the entry without its
      // tenant field; the chain links up, but no entry's hash is the hash of its fields.
      const first = home(c);
      if (!isAudit(c, a) || !first || tenantOf(c) === first || !Array.isArray(a.json.data?.entries)) return;
      const key = `r29-hashes:${tenantOf(c)}`;
      const hashes = (c.memory.get(key) as Map<number, string> | undefined) ?? new Map<number, string>();
      c.memory.set(key, hashes);
      const data = a.json.data as Rec;
      const sorted = [...(data.entries as Rec[])].sort((x, y) => x.seq - y.seq);
      for (const e of sorted) {
        e.prevHash = hashes.get(e.seq - 1) ?? e.prevHash;
        const { hash: _h, tenant: _t, ...fields } = e;
        e.hash = createHash('sha256').update(canonicalJson(fields)).digest('hex');
        hashes.set(e.seq, e.hash);
      }
      const proof = data.proof as Rec | undefined;
      const oldest = sorted[0];
      const newest = sorted[sorted.length - 1];
      if (!proof || !oldest || !newest) return;
      proof.anchorPrevHash = oldest.prevHash;
      proof.headHash = newest.hash;
      const head = proof.chainHead as Rec | undefined;
      if (head && hashes.has(head.seq)) head.hash = hashes.get(head.seq);
    },
  },
];
