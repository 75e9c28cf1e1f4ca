import type { ProxyCall, UnseenViolation } from './proxy.ts';
import { home, P, refuse } from './proxy-helpers.ts';
import type { Rec } from './round44-common.ts';
import { kept, remember } from './round58-common.ts';

/** Round 58, part 3: paths and methods at the edges (slashes, percent-encoding, repeated parameters, HEAD, OPTIONS, unknown routes). */
const BASE = P('');
const ENCODED = /%[0-9A-Fa-f]{2}/;
const borrow = (c: ProxyCall) => {
  const auth = c.memory.get('r58-auth') as string | undefined;
  if (!auth) return;
  c.headers.authorization = auth;
  if (!c.headers['x-service-tenant']) c.headers['x-service-tenant'] = String(c.memory.get('r58-auth-tenant') ?? '');
};
/** Decodes the percent-encoded letters and digits of a path (what a router's normaliser does). */
const decode = (path: string) =>
  path.replace(/%([0-9A-Fa-f]{2})/g, (m, hex: string) => {
    const ch = String.fromCharCode(Number.parseInt(hex, 16));
    return /^[A-Za-z0-9]$/.test(ch) ? ch : m;
  });
const KNOWN = new Set(
  [
    '',
    '/',
    '/openapi.json',
    '/openapi.yaml',
    '/providers',
    '/connectors',
    '/capabilities',
    '/connections',
    '/idempotency-keys',
    '/stream',
    '/webhooks',
    '/audit-log',
    '/info',
  ].map(P),
);
const KNOWN_PREFIXES = ['/openapi', '/webhooks/', '/connections/', '/providers/', '/connectors/', '/capabilities/'].map(
  P,
);
const noRoute = (a: { status: number; json: Rec }) =>
  a.status === 404 && typeof a.json.error?.detail === 'string' && a.json.error.detail.startsWith('No route');

export const ROUND58_DOCUMENTS: UnseenViolation[] = [
  {
    name: 'trailing-slash-read-answered-html-404',
    statement:
      'Errors: Error responses use the failure envelope; Failure envelope (every error response): ok | boolean | yes | always false (a GET of a route written with a trailing slash)',
    request(c) {
      // Express runs with strict routing; "/providers/" matches no route and falls to finalhandler's HTML page.
      home(c);
      if (c.method !== 'GET' || !c.path.startsWith(`${BASE}/`) || !c.path.endsWith('/') || c.path === `${BASE}/`)
        return undefined;
      const raw = `<!DOCTYPE html>\n<html lang="en">\n<head>\n<meta charset="utf-8">\n<title>Error</title>\n</head>\n<body>\n<pre>Cannot GET ${c.path}</pre>\n</body>\n</html>\n`;
      return { status: 404, headers: { 'content-type': 'text/html; charset=utf-8' }, json: {}, raw };
    },
  },
  {
    name: 'doubled-slash-not-found-lacks-meta',
    statement:
      'Failure envelope (every error response): meta | Meta | yes; Errors: They contain the request identifier (meta.requestId) (a path with a doubled slash)',
    answer(c, a) {
      // The path normaliser rejects "//" before the request-context middleware ran, so the envelope has no meta.
      home(c);
      if (!c.path.includes('//') || a.status < 400) return;
      delete a.json.meta;
    },
  },
  {
    name: 'percent-encoded-path-refused-code-bad-path',
    statement:
      'Failure envelope: error.code | string | yes | one of the codes in the Errors part (a path with percent-encoded letters)',
    answer(c, a) {
      // The WAF rule against encoded path traversal answers any %XX in the path with its own code.
      home(c);
      if (!ENCODED.test(c.path) || a.status < 400) return;
      refuse(a, 400, 'bad_path', 'The request path is not allowed.', 'Encoded characters are not accepted in paths.');
    },
  },
  {
    name: 'repeated-filter-parameter-uses-last-value',
    statement:
      'GET /api/public/v1/providers: category | string | no | restricts to one category; Errors: invalid_request | 400 | wrong data type (a query parameter given twice)',
    request(c) {
      // The query parser keeps the last value of a repeated parameter (a plain object built from the pairs), so a list
      // of two categories is silently read as the second one.
      home(c);
      if (c.method !== 'GET' || (c.path !== P('/providers') && c.path !== P('/connectors'))) return undefined;
      for (const k of new Set(c.search.keys())) {
        const all = c.search.getAll(k);
        if (all.length > 1) c.search.set(k, all[all.length - 1] as string);
      }
      return undefined;
    },
  },
  {
    name: 'head-of-authenticated-route-served-without-token',
    statement:
      'Endpoints: All authenticated endpoints require the headers described under Authentication; Errors: unauthorized | 401 | token missing (a HEAD of an authenticated route without a token)',
    request(c) {
      // The auth guard is registered with router.get(), and HEAD is routed to the GET handler without passing it; the
      // handler then reads with the connection pool's cached session.
      const had = Boolean(c.headers.authorization);
      remember(c);
      if (c.method !== 'HEAD' || had || c.path === BASE || c.path === P('/openapi.json') || c.path === P('/stream'))
        return undefined;
      borrow(c);
      return undefined;
    },
    answer(c, a) {
      kept(c, a);
    },
  },
  {
    name: 'options-answered-cors-preflight-without-envelope',
    statement:
      'Endpoints: Success responses use status 200 and the success envelope; What the service does: The interface is called from servers only (an OPTIONS of a route)',
    request(c) {
      // The cors() middleware was left on from the portal's prototype and answers every OPTIONS itself: 200, no body,
      // and an allow-any-origin header.
      home(c);
      if (c.method !== 'OPTIONS') return undefined;
      return {
        status: 200,
        headers: {
          'access-control-allow-origin': '*',
          'access-control-allow-methods': 'GET,HEAD,PUT,PATCH,POST,DELETE',
          'access-control-allow-headers': 'authorization,x-service-tenant,idempotency-key,content-type',
          'content-type': 'text/plain; charset=utf-8',
        },
        json: {},
        raw: '',
      };
    },
  },
  {
    name: 'unknown-route-answered-with-self-description',
    statement:
      'Errors: not_found | 404 | the entry does not exist; Failure envelope: every error response (a GET of an unknown route under /api/public/v1)',
    request(c) {
      // A catch-all GET route under the base (added for the self-description at "/api/public/v1/") answers every path
      // no other route took.
      home(c);
      if (c.method !== 'GET' || !c.path.startsWith(`${BASE}/`)) return undefined;
      if (KNOWN.has(c.path) || KNOWN_PREFIXES.some((p) => c.path.startsWith(p))) return undefined;
      c.path = BASE;
      return undefined;
    },
  },
  {
    name: 'alt-unknown-route-code-uppercased',
    statement:
      'Failure envelope: error.code | string | yes | one of the codes in the Errors part; not_found | 404 (an unknown route asked at the alternate address)',
    answer(c, a) {
      // The alternate address's edge router formats its own 404 with the Java enum name of the code.
      home(c);
      if (c.base !== 'alt' || !noRoute(a)) return;
      a.json.error.code = 'NOT_FOUND';
    },
  },
  {
    name: 'percent-encoded-route-bypasses-token-check',
    statement:
      'Endpoints: All authenticated endpoints require the headers described under Authentication; Errors: unauthorized | 401 | token missing (an authenticated route written with percent-encoded letters, without a token)',
    request(c) {
      // The auth guard matches the raw path against the protected prefixes; the router decodes it afterwards, so
      // "/api/public/v1/connection%73" skips the guard and is served with the gateway's cached session.
      const had = Boolean(c.headers.authorization);
      remember(c);
      if (!ENCODED.test(c.path)) return undefined;
      const decoded = decode(c.path);
      if (decoded === c.path) return undefined;
      c.path = decoded;
      if (!had) borrow(c);
      return undefined;
    },
    answer(c, a) {
      kept(c, a);
    },
  },
];
