import type { ProxyCall, UnseenViolation } from './proxy.ts';
import { home, isCreate, P, refuse } from './proxy-helpers.ts';

/**
 * Round 39 of the unseen violations, part 1: answers — vendor +json Accept headers refused with 406, the
 * alternate address answering unknown tokens in the token endpoint's own format, older connections of a
 * connector hidden once a newer one exists, alternate refusals quoting the bearer token, charset Accept
 * headers answered with a doubly wrapped envelope, a second tenant's listing naming the first tenant, production
 * creations answered without capability entries, and a second tenant's catalog count of one page.
 */
type Rec = Record<string, any>;
/** A call for a tenant other than the run's own one; call it first in every hook, as it records that tenant. */
const isSecond = (c: ProxyCall) => {
  const first = home(c);
  return Boolean(first && c.headers['x-service-tenant'] && c.headers['x-service-tenant'] !== first);
};

export const ROUND39_ANSWERS: UnseenViolation[] = [
  {
    name: 'vendor-json-accept-refused-406',
    statement:
      'Endpoints: Success responses use status 200 and the success envelope; Failure envelope: error.code | one of the codes in the Errors part (a vendor +json Accept too)',
    answer(c, a) {
      // The gateway's content negotiation knows only application/json and */*, so a +json type is "unacceptable".
      home(c);
      const accept = c.headers.accept ?? '';
      if (/\+json/i.test(accept) && !/application\/json|\*\/\*/i.test(accept))
        refuse(a, 406, 'not_acceptable', 'The requested media type is not offered.');
    },
  },
  {
    name: 'alt-unknown-token-answered-in-oauth-format',
    statement:
      'Errors: unauthorized | 401 | call was not signed in | token missing, token expired; Failure envelope: ok, error.code, meta required (under {alt_base_url} too)',
    answer(c, a) {
      // The alternate region validates tokens by introspection and forwards the authorization server's refusal.
      home(c);
      if (c.base !== 'alt' || a.status !== 401 || !c.headers.authorization) return;
      a.status = 400;
      a.json = { error: 'invalid_token', error_description: 'The access token is invalid or has expired.' };
    },
  },
  {
    name: 'older-connection-of-same-connector-hidden',
    statement:
      'GET /api/public/v1/connections: connections of the tenant … data: tenant, count (integer), connections (array of Connection) (an older connection of the same connector stays listed)',
    answer(c, a) {
      // The listing joins on a "latest connection per connector" view the dashboard needed, so older ones vanish.
      home(c);
      const data = a.json.data as Rec | undefined;
      if (c.method !== 'GET' || c.path !== P('/connections') || !Array.isArray(data?.connections)) return;
      const latest = new Map<string, Rec>();
      for (const conn of data.connections as Rec[]) {
        const seen = latest.get(conn?.connectorId);
        if (!seen || String(conn?.createdAt) > String(seen.createdAt)) latest.set(conn?.connectorId, conn);
      }
      data.connections = (data.connections as Rec[]).filter((conn) => latest.get(conn?.connectorId) === conn);
      data.count = data.connections.length;
    },
  },
  {
    name: 'alt-not-found-detail-quotes-bearer-token',
    statement:
      'Errors: They contain the request identifier (meta.requestId) but no internal details … (no tokens or raw data are to be sent along) (alternate 404 answers too)',
    answer(c, a) {
      // The alternate region's debug logging formatter was wired into the error detail of lookups.
      home(c);
      const auth = c.headers.authorization;
      if (c.base === 'alt' && a.status === 404 && a.json.error && auth)
        a.json.error.detail = `No entry for ${c.path} (tenant ${c.headers['x-service-tenant']}, ${auth}).`;
    },
  },
  {
    name: 'charset-accept-envelope-wrapped-twice',
    statement:
      'Success envelope (every JSON success response): ok | data | meta (an Accept of application/json; charset=utf-8 too)',
    answer(c, a) {
      // A response-shaping middleware matches the Accept value with a parameter as "raw JSON" and wraps once more.
      home(c);
      const accept = c.headers.accept ?? '';
      if (a.status === 200 && a.json.ok === true && /application\/json\s*;\s*charset/i.test(accept))
        a.json = { ok: true, data: { ...a.json }, meta: a.json.meta };
    },
  },
  {
    name: 'second-tenant-connections-report-home-tenant',
    statement:
      'GET /api/public/v1/connections: data: tenant (string) …; x-service-tenant | identifier of the tenant for which the call applies (a second tenant’s listing names that tenant)',
    answer(c, a) {
      // The list header block is cached per token client, so the second tenant's listing names the first one.
      const second = isSecond(c);
      const first = home(c);
      if (
        second &&
        first &&
        c.method === 'GET' &&
        c.path === P('/connections') &&
        typeof a.json.data?.tenant === 'string'
      )
        a.json.data.tenant = first;
    },
  },
  {
    name: 'production-creation-capabilities-empty',
    statement:
      'POST /api/public/v1/connections: data: the Connection; Connection: capabilities | array of object | each entry: capability, critical, idempotencyRequired (a production creation too)',
    answer(c, a) {
      // Production creations return the row before the capability join commits, so the list is still empty.
      home(c);
      const data = a.json.data as Rec | undefined;
      if (isCreate(c) && a.status === 200 && data?.environment === 'production' && Array.isArray(data.capabilities))
        data.capabilities = [];
    },
  },
  {
    name: 'second-tenant-connectors-count-of-first-page',
    statement:
      'GET /api/public/v1/connectors: data: count (integer), connectors (array of Connector) (a second tenant’s count counts every listed connector)',
    answer(c, a) {
      // The second tenant's catalog reads from a paged API and reports the size of its first page of five.
      const second = isSecond(c);
      const data = a.json.data as Rec | undefined;
      if (second && c.method === 'GET' && c.path === P('/connectors') && Array.isArray(data?.connectors))
        if (data.connectors.length > 5) data.count = 5;
    },
  },
];
