import { createHmac } from 'node:crypto';
import type { UnseenViolation } from './proxy.ts';
import { P } from './proxy-helpers.ts';
import { failure, rememberLimits } from './round6-support.ts';

/**
 * Round 7 of the unseen violations, part 3 (a second outsider): channels and headers — webhook
 * signatures built slightly wrong (no dot, cut short, text outside ASCII hashed as Latin-1, key
 * without its prefix), a resumed stream on the alternate address numbered from the cursor on, the
 * alternate address guarding the public stream and refusing the current Service-Version, rate-limit
 * headers counted across tenants or left off on the alternate address, and errors that lose meta.at
 * once the service has run a while.
 */
const hmac = (key: string) => createHmac('sha256', key);
const lastRead = (c: { search: URLSearchParams; headers: Record<string, string> }) => {
  const raw = c.headers['last-event-id'] ?? c.search.get('cursor') ?? '';
  return /^\d+$/.test(raw.trim()) ? Number(raw) : 0;
};
const CURRENT = '2026-07-01';

export const ROUND7_CHANNELS: UnseenViolation[] = [
  {
    name: 'signature-without-dot-separator',
    statement:
      'Webhooks: the signature is an HMAC with SHA-256 ... over the text <t>, a dot, and the unchanged raw request body',
    // The signing helper concatenates timestamp and body directly (a template literal lost its dot).
    sign: (body, secret, t) => `t=${t},v1=${hmac(secret).update(`${t}${body}`).digest('hex')}`,
  },
  {
    name: 'signature-hex-cut-to-128-bits',
    statement: 'Webhooks: the signature is an HMAC with SHA-256 ... written as lowercase hex (all of it: 64 digits)',
    // The header value is stored in a column of 32 characters and cut there.
    sign: (body, secret, t) => `t=${t},v1=${hmac(secret).update(`${t}.${body}`).digest('hex').slice(0, 32)}`,
  },
  {
    name: 'signature-over-latin1-bytes',
    statement:
      'Webhooks: the signature is an HMAC with SHA-256 ... over the text <t>, a dot, and the unchanged raw request body (the bytes sent, UTF-8)',
    // The signer hashes the text as Latin-1 while the body goes out as UTF-8: equal for ASCII, wrong for "Café".
    sign: (body, secret, t) => `t=${t},v1=${hmac(secret).update(`${t}.${body}`, 'latin1').digest('hex')}`,
  },
  {
    name: 'signature-key-without-prefix',
    statement: 'Webhooks: an HMAC with SHA-256, keyed with the signing key (the whole key as issued, prefix included)',
    // The sender strips the display prefix (whsec_) before keying the HMAC; the receiver holds the whole key.
    sign: (body, secret, t) =>
      `t=${t},v1=${hmac(secret.replace(/^[a-z]+_/, ''))
        .update(`${t}.${body}`)
        .digest('hex')}`,
  },
  {
    name: 'alt-resume-ids-offset-by-cursor',
    statement:
      'Status stream: every message carries a consecutive number; the client resumes without gaps by sending Last-Event-ID or cursor (the same interface at alt_base_url)',
    stream(c, lines) {
      // The alternate gateway adds the resume position to the numbers it passes on (a base offset, twice).
      const n = lastRead(c);
      if (c.base !== 'alt' || n === 0) return lines;
      return lines.replace(/^id:\s*(\d+)\s*$/gm, (_m, id: string) => `id: ${Number(id) + n}`);
    },
  },
  {
    name: 'alt-stream-requires-token',
    statement:
      'Authentication: public endpoints (no authentication): GET /api/public/v1/stream (the same interface at alt_base_url)',
    request(c) {
      // The alternate gateway applies its bearer check to every path under the base, the stream included.
      if (c.base !== 'alt' || c.method !== 'GET' || c.path !== P('/stream') || c.headers.authorization)
        return undefined;
      return failure(c, 401, 'unauthorized', 'The call was not signed in.');
    },
  },
  {
    name: 'alt-refuses-current-service-version',
    statement:
      'Versioning: the current version identifier is 2026-07-01; sample calls send a header Service-Version with the version identifier (the same interface at alt_base_url)',
    request(c) {
      // The alternate address was deployed with a version table that ends at the earlier version.
      if (c.base !== 'alt' || c.headers['service-version']?.trim() !== CURRENT) return undefined;
      return failure(c, 400, 'invalid_request', 'Unknown Service-Version.', 'Supported: 2026-06-12');
    },
    // Passing answers are noted so the refusal carries the tenant's rate-limit headers like any other.
    answer: rememberLimits,
  },
  {
    name: 'remaining-shared-across-tenants',
    statement:
      'Limits: rate limits are configured per access, per tenant and per environment; X-RateLimit-Remaining (calls left in the window)',
    answer(c, a) {
      // The counter is keyed by access only: every tenant's calls are subtracted from one window.
      const tenant = c.headers['x-service-tenant'];
      const limit = Number(a.headers['x-ratelimit-limit']);
      const left = Number(a.headers['x-ratelimit-remaining']);
      if (!tenant || a.headers['x-ratelimit-remaining'] === undefined || !Number.isFinite(limit + left)) return;
      c.memory.set(`used:${tenant}`, limit - left);
      let used = 0;
      for (const [k, v] of c.memory) if (k.startsWith('used:')) used += v as number;
      a.headers['x-ratelimit-remaining'] = String(Math.max(0, limit - used));
    },
  },
  {
    name: 'alt-rate-limited-without-retry-after',
    statement: 'Limits: when exceeded, the service answers 429 with a wait time (Retry-After) — at alt_base_url too',
    answer(c, a) {
      // The alternate gateway rebuilds 429 answers from the body and forgets the header.
      if (c.base === 'alt' && a.status === 429) delete a.headers['retry-after'];
    },
  },
  {
    name: 'late-errors-lack-meta-at',
    statement: 'Failure envelope: meta | Meta | yes; Meta: at | string, date-time | yes (after the 40th call too)',
    answer(c, a) {
      // A formatter cache warms up after 40 calls and its cached error meta never had the time.
      const n = ((c.memory.get('calls') as number | undefined) ?? 0) + 1;
      c.memory.set('calls', n);
      if (n > 40 && a.status >= 400 && a.json.meta && typeof a.json.meta === 'object') delete a.json.meta.at;
    },
  },
];
