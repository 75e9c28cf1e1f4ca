import type { ProxyAnswer, ProxyCall, UnseenViolation } from './proxy.ts';
import { isCreate, P, refuse } from './proxy-helpers.ts';

/**
 * Round 29 of the unseen violations, part 2: inputs — keys with a colon refused under the alternate
 * address, production replays not marked, non-string capability items dropped, catalog reads under
 * the alternate address served without a token, a fingerprint over the first capability only, a
 * missing key replaced by the tenant's last one, and development scope labels over 120 cut silently.
 */
type Rec = Record<string, any>;
const tenantOf = (c: ProxyCall) => c.headers['x-service-tenant'] ?? '';
const body = (c: ProxyCall) => (c.body && typeof c.body === 'object' ? (c.body as Rec) : undefined);
const CATALOG = new Set([P('/providers'), P('/connectors'), P('/capabilities')]);

/** What a fingerprint that stops after the first capability sees. */
const shortPrint = (b: Rec | undefined) =>
  JSON.stringify([
    b?.connectorId,
    b?.environment,
    b?.scopeLabel,
    Array.isArray(b?.capabilities) ? b.capabilities[0] : '',
  ]);

export const ROUND29_INPUTS: UnseenViolation[] = [
  {
    name: 'alt-key-with-colon-refused',
    statement:
      'Limits: Idempotency-Key — pattern ^[A-Za-z0-9._:-]{8,128}$ (letters, digits, dot, underscore, colon, hyphen) (under {alt_base_url})',
    answer(c, a) {
      // The alternate domain's WAF treats a colon in a header value as an injection attempt.
      const key = c.headers['idempotency-key'];
      if (c.base !== 'alt' || c.method !== 'POST' || !key?.includes(':') || a.status >= 400) return;
      refuse(
        a,
        400,
        'invalid_request',
        'The request is incomplete or unsuitable.',
        'Idempotency-Key has invalid characters',
      );
    },
  },
  {
    name: 'production-replay-not-marked',
    statement:
      'POST /api/public/v1/connections: Sending the same key with the same content returns the same response again, with meta.replayed true',
    answer(c, a) {
      // Production creations are replayed from the durable store, whose rows carry no replay marker.
      if (!isCreate(c) || a.status !== 200 || body(c)?.environment !== 'production') return;
      if (a.json.meta?.replayed === true) a.json.meta.replayed = false;
    },
  },
  {
    name: 'creation-capabilities-non-strings-dropped',
    statement:
      'POST /api/public/v1/connections: capabilities — array of string, 1 to 24 items, each of length 2 to 120',
    request(c) {
      // The body mapper filters the list to strings before validation instead of refusing it.
      const b = body(c);
      if (!isCreate(c) || !Array.isArray(b?.capabilities)) return undefined;
      const strings = (b.capabilities as unknown[]).filter((x) => typeof x === 'string');
      if (strings.length && strings.length !== b.capabilities.length) c.body = { ...b, capabilities: strings };
      return undefined;
    },
  },
  {
    name: 'alt-catalog-served-without-token',
    statement:
      'Authentication: Required on every authenticated call — Authorization: Bearer token (GET /providers, /connectors, /capabilities are authenticated)',
    request(c) {
      // The alternate domain's CDN answers catalog reads from the cache filled by an authenticated call.
      if (c.headers.authorization && c.headers['x-service-tenant'])
        c.memory.set('r29-auth', [c.headers.authorization, c.headers['x-service-tenant']]);
      const seen = c.memory.get('r29-auth') as [string, string] | undefined;
      if (c.base !== 'alt' || c.method !== 'GET' || !CATALOG.has(c.path) || c.headers.authorization || !seen)
        return undefined;
      c.headers.authorization = seen[0];
      c.headers['x-service-tenant'] ??= seen[1];
      return undefined;
    },
  },
  {
    name: 'conflict-ignores-later-capabilities',
    statement:
      'POST /api/public/v1/connections: The same key with different content yields idempotency_conflict (content differing only in later capabilities)',
    request(c) {
      // The fingerprint was meant to cover the body but stops after the first capability.
      const key = c.headers['idempotency-key'];
      if (!isCreate(c) || !key) return undefined;
      const stored = c.memory.get(`r29-fp:${tenantOf(c)}:${key}`) as
        | { print: string; full: string; a: ProxyAnswer }
        | undefined;
      if (!stored || stored.full === JSON.stringify(body(c)) || stored.print !== shortPrint(body(c))) return undefined;
      const a = structuredClone(stored.a);
      a.json.meta = { ...a.json.meta, requestId: `req_${Date.now().toString(36)}`, at: new Date().toISOString() };
      a.json.meta.replayed = true;
      a.json.meta.idempotencyKey = key;
      return a;
    },
    answer(c, a) {
      const key = c.headers['idempotency-key'];
      if (!isCreate(c) || !key || a.status !== 200 || a.json.meta?.replayed) return;
      const a2: ProxyAnswer = { status: a.status, headers: { ...a.headers }, json: structuredClone(a.json) };
      c.memory.set(`r29-fp:${tenantOf(c)}:${key}`, {
        print: shortPrint(body(c)),
        full: JSON.stringify(body(c)),
        a: a2,
      });
    },
  },
  {
    name: 'missing-key-reuses-tenants-last-key',
    statement: 'POST /api/public/v1/connections: A missing key yields idempotency_required.',
    request(c) {
      // A client-session layer "helpfully" fills a missing Idempotency-Key with the tenant's last one.
      if (!isCreate(c)) return undefined;
      const key = c.headers['idempotency-key'];
      if (key) c.memory.set(`r29-last-key:${tenantOf(c)}`, key);
      else {
        const last = c.memory.get(`r29-last-key:${tenantOf(c)}`) as string | undefined;
        if (last) c.headers['idempotency-key'] = last;
      }
      return undefined;
    },
  },
  {
    name: 'development-scope-label-over-120-cut',
    statement: 'Limits: scopeLabel — length 2 to 120 (POST /connections, environment development)',
    request(c) {
      // Development creations skip validation and the column cuts the label to its width.
      const b = body(c);
      if (!isCreate(c) || b?.environment !== 'development' || typeof b.scopeLabel !== 'string') return undefined;
      if (b.scopeLabel.length > 120) c.body = { ...b, scopeLabel: b.scopeLabel.slice(0, 120) };
      return undefined;
    },
  },
];
