import type { ProxyCall, UnseenViolation } from './proxy.ts';
import { P } from './proxy-helpers.ts';

/**
 * Round 28 of the unseen violations, part 2: inputs and rate-limit arithmetic — the capability filter
 * run against the production-available set, a redelivery accepted without its key, keys normalised
 * by stripping trailing punctuation, rate-limit numbers with locale grouping, filtered reads counted
 * twice, and writes whose Remaining header is sent twice.
 */
type Rec = Record<string, any>;
const REDELIVER = /^\/api\/public\/v1\/webhooks\/[^/]+\/deliveries\/[^/]+\/redeliver$/;
const tenantOf = (c: ProxyCall) => c.headers['x-service-tenant'] ?? '';
/** The key a caller really sent, per call (the normalising violation sends another one on). */
const sentKeys = new WeakMap<ProxyCall, string>();

export const ROUND28_INPUTS: UnseenViolation[] = [
  {
    name: 'capability-filter-drops-production-restricted',
    statement:
      'GET /api/public/v1/connectors: Query parameter capability (restricts the list to connectors offering it); Connector: capabilities',
    answer(c, a) {
      // The capability filter reads the "production-available" index, so a connector that lists the
      // capability but has it restricted in production is left out of the filtered list.
      const cap = c.search.get('capability');
      if (c.method !== 'GET' || c.path !== P('/connectors') || !cap || a.status !== 200) return;
      const rows = a.json.data?.connectors as Rec[] | undefined;
      if (!Array.isArray(rows)) return;
      const kept = rows.filter((k) => !((k?.restrictedIn?.production ?? []) as string[]).includes(cap));
      a.json.data.connectors = kept;
      a.json.data.count = kept.length;
    },
  },
  {
    name: 'redelivery-without-key-accepted',
    statement:
      'Versioning: Change of 2026-06-12 (security): modifying calls require an idempotency key. (Errors: idempotency_required 428 — header Idempotency-Key missing; redelivery of the delivery log)',
    request(c) {
      // The redeliver route was added in 2026-07-01 behind a router group that misses the key
      // middleware's "require" flag: a missing key is silently replaced by a generated one.
      if (c.method === 'POST' && REDELIVER.test(c.path) && !c.headers['idempotency-key'])
        c.headers['idempotency-key'] = `auto-${Date.now()}-${Math.random().toString(36).slice(2)}`;
      return undefined;
    },
  },
  {
    name: 'keys-trailing-punctuation-stripped',
    statement:
      'POST /api/public/v1/connections: The same key with different content yields idempotency_conflict. (Limits: Idempotency-Key pattern ^[A-Za-z0-9._:-]{8,128}$ — each key its own)',
    request(c) {
      // Keys are "normalised" like slugs before the store lookup: trailing dots, colons, hyphens and
      // underscores are dropped, so "order-1234-" and "order-1234" are one key.
      const key = c.headers['idempotency-key'];
      if (c.method !== 'POST' || !key) return undefined;
      const slug = key.replace(/[._:-]+$/, '');
      if (slug === key || slug.length < 8) return undefined;
      sentKeys.set(c, key);
      c.headers['idempotency-key'] = slug;
      return undefined;
    },
    answer(c, a) {
      // The echo shows the key the caller sent.
      const sent = sentKeys.get(c);
      if (sent && a.json.meta?.idempotencyKey !== undefined) a.json.meta.idempotencyKey = sent;
    },
  },
  {
    name: 'rate-limit-numbers-locale-grouped',
    statement:
      'Limits: Response headers: X-RateLimit-Limit (limit for the current window), X-RateLimit-Remaining (calls left in the window)',
    answer(_c, a) {
      // The gateway formats header numbers with toLocaleString, so limits of a thousand and more get
      // a thousands separator ("5,000").
      for (const h of ['x-ratelimit-limit', 'x-ratelimit-remaining']) {
        const v = a.headers[h];
        if (v !== undefined && /^\d+$/.test(v)) a.headers[h] = Number(v).toLocaleString('en-US');
      }
    },
  },
  {
    name: 'filtered-reads-counted-twice',
    statement: 'Limits: X-RateLimit-Remaining (calls left in the window) — one call counts once',
    answer(c, a) {
      // A read with query parameters misses the response cache, which counts the call, and is then
      // counted again by the handler: each filtered read uses two calls of the window.
      const slot = `r28-extra:${tenantOf(c)}`;
      const filtered = c.method === 'GET' && [...c.search.keys()].length > 0 && Boolean(c.headers.authorization);
      const remaining = a.headers['x-ratelimit-remaining'];
      if (remaining === undefined) return;
      const extra = ((c.memory.get(slot) as number | undefined) ?? 0) + (filtered ? 1 : 0);
      c.memory.set(slot, extra);
      a.headers['x-ratelimit-remaining'] = String(Math.max(0, Number(remaining) - extra));
    },
  },
  {
    name: 'write-remaining-header-sent-twice',
    statement: 'Limits: Response headers: X-RateLimit-Remaining (calls left in the window)',
    answer(c, a) {
      // Writes pass the global limiter and the write limiter, and both append the header: the
      // client sees two values joined by a comma.
      const r = a.headers['x-ratelimit-remaining'];
      if (c.method === 'POST' && r !== undefined && /^\d+$/.test(r))
        a.headers['x-ratelimit-remaining'] = `${Number(r) + 1}, ${r}`;
    },
  },
];
