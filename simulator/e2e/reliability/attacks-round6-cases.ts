// The round-6 attacks that are one request each, as data: what is sent (raw HTTP) and what must come
// back. attacks-round6.e2e.test.ts sends each to `ncs serve` (serve()) and checks status, envelope and hint.

export interface Who {
  token: string;
  tenant: string;
  admin: string;
}

export interface RawCase {
  name: string;
  request: (w: Who) => string;
  /** The status of the (first) answer. */
  status: number;
  /** What the failure's detail says (failures only; every failure must also carry a message and a hint). */
  detail?: RegExp;
  /** Text the answer must not contain (a value the attack tried to plant). */
  absent?: string;
}

export const bearer = (w: Who) => `Authorization: Bearer ${w.token}\r\nx-service-tenant: ${w.tenant}\r\n`;
export const get = (target: string, headers = '', version = 'HTTP/1.1') =>
  `GET ${target} ${version}\r\nHost: 127.0.0.1\r\n${headers}Connection: close\r\n\r\n`;
export const post = (target: string, headers: string, body: string) =>
  `POST ${target} HTTP/1.1\r\nHost: 127.0.0.1\r\n${headers}Content-Length: ${Buffer.byteLength(body, 'latin1')}\r\nConnection: close\r\n\r\n${body}`;
export const json = (w: Who, target: string, body: string, extra = '') =>
  post(target, `${bearer(w)}Content-Type: application/json\r\n${extra}`, body);
export const form = (body: string, extra = '') =>
  post('/oauth/token', `Content-Type: application/x-www-form-urlencoded\r\n${extra}`, body);
export const CRED = 'client_id=harbour-backend&client_secret=hk-sandbox-secret-5f2c9a7e1b3d4c60';
export const PROVIDERS = '/api/public/v1/providers';
export const CHECK = '/api/public/v1/capabilities';
export const CLOCK = '/_sandbox/clock';

/** Framing and request-target tricks. */
export const FRAMING: RawCase[] = [
  {
    name: 'lower-case method',
    request: () => get('/api/public/v1').replace('GET', 'get'),
    status: 400,
    detail: /method is not valid/,
  },
  { name: 'HTTP/1.2', request: () => get('/api/public/v1', '', 'HTTP/1.2'), status: 400, detail: /not valid HTTP/ },
  { name: 'OPTIONS-style * target on GET', request: () => get('*'), status: 404, detail: /No route \*/ },
  {
    name: 'absolute-form with user-info',
    request: (w) => get(`http://user:pass@127.0.0.1${PROVIDERS}`, bearer(w)),
    status: 200,
  },
  { name: 'absolute-form https://', request: (w) => get(`https://127.0.0.1${PROVIDERS}`, bearer(w)), status: 200 },
  { name: 'absolute-form ftp:// (not a path)', request: () => get('ftp://127.0.0.1/api/public/v1'), status: 404 },
  {
    name: 'authority-form on GET',
    request: () => get('127.0.0.1:4010/api/public/v1'),
    status: 400,
    detail: /not valid HTTP/,
  },
  { name: 'raw UTF-8 in the target', request: (w) => get(`${PROVIDERS}/\xc3\xa9`, bearer(w)), status: 400 },
  { name: 'raw UTF-8 in a header name', request: () => get('/api/public/v1', 'x-t\xc3\xa9: 1\r\n'), status: 400 },
  { name: 'empty header name', request: () => get('/api/public/v1', ': v\r\n'), status: 400 },
  { name: '500 Cookie headers', request: () => get('/api/public/v1', 'Cookie: a=b\r\n'.repeat(500)), status: 200 },
  {
    name: '100 KB query',
    request: () => get(`${PROVIDERS}?category=${'a'.repeat(100_000)}`),
    status: 400,
    detail: /headers are larger/,
  },
  {
    name: '//-prefixed path (no host confusion)',
    request: (w) => get(`//evil.example${PROVIDERS}`, bearer(w)),
    status: 404,
  },
];

/** Authorization, tenant and admin-token tricks. */
export const ACCESS: RawCase[] = [
  {
    name: 'quoted bearer token',
    request: (w) => get(PROVIDERS, `Authorization: Bearer "${w.token}"\r\nx-service-tenant: ${w.tenant}\r\n`),
    status: 401,
  },
  {
    name: 'token in Proxy-Authorization',
    request: (w) => get(PROVIDERS, `Proxy-Authorization: Bearer ${w.token}\r\nx-service-tenant: ${w.tenant}\r\n`),
    status: 401,
    detail: /missing/,
  },
  {
    name: 'token in a cookie',
    request: (w) => get(PROVIDERS, `Cookie: access_token=${w.token}\r\nx-service-tenant: ${w.tenant}\r\n`),
    status: 401,
  },
  {
    name: 'bare "Bearer"',
    request: (w) => get(PROVIDERS, `Authorization: Bearer\r\nx-service-tenant: ${w.tenant}\r\n`),
    status: 401,
    detail: /not of the form/,
  },
  {
    name: 'token written twice without a space',
    request: (w) => get(PROVIDERS, `Authorization: Bearer ${w.token}${w.token}\r\nx-service-tenant: ${w.tenant}\r\n`),
    status: 401,
  },
  {
    name: 'no space after the colons',
    request: (w) => get(PROVIDERS, `Authorization:Bearer ${w.token}\r\nx-service-tenant:${w.tenant}\r\n`),
    status: 200,
  },
  {
    name: 'tenant header in upper case',
    request: (w) => get(PROVIDERS, `Authorization: Bearer ${w.token}\r\nX-SERVICE-TENANT: ${w.tenant}\r\n`),
    status: 200,
  },
  {
    name: 'x_service_tenant (underscores)',
    request: (w) => get(PROVIDERS, `Authorization: Bearer ${w.token}\r\nx_service_tenant: ${w.tenant}\r\n`),
    status: 400,
    detail: /x-service-tenant is required/,
  },
  {
    name: 'tenant twice, the second empty',
    request: (w) => get(PROVIDERS, `${bearer(w)}x-service-tenant: \r\n`),
    status: 403,
  },
  { name: 'admin token in the query', request: (w) => get(`${CLOCK}?token=${w.admin}`), status: 401 },
  {
    name: 'admin token as Basic password',
    request: (w) => get(CLOCK, `Authorization: Basic ${Buffer.from(`admin:${w.admin}`).toString('base64')}\r\n`),
    status: 401,
  },
  {
    name: 'admin token upper-cased',
    request: (w) => get(CLOCK, `Authorization: Bearer ${w.admin.toUpperCase()}\r\n`),
    status: 401,
    detail: /not recognised/,
  },
  {
    name: 'admin token without its last character',
    request: (w) => get(CLOCK, `Authorization: Bearer ${w.admin.slice(0, -1)}\r\n`),
    status: 401,
  },
  { name: 'admin token in X-Admin-Token', request: (w) => get(CLOCK, `X-Admin-Token: ${w.admin}\r\n`), status: 401 },
  {
    name: 'admin token twice in one header',
    request: (w) => get(CLOCK, `Authorization: Bearer ${w.admin}, Bearer ${w.admin}\r\n`),
    status: 401,
  },
  {
    name: 'tenant token on the control plane',
    request: (w) => get(CLOCK, `Authorization: Bearer ${w.token}\r\n`),
    status: 403,
  },
  {
    name: 'admin token on the API',
    request: (w) => get(PROVIDERS, `Authorization: Bearer ${w.admin}\r\nx-service-tenant: ${w.tenant}\r\n`),
    status: 401,
  },
  {
    name: 'control plane in upper case',
    request: (w) => get('/_SANDBOX/clock', `Authorization: Bearer ${w.admin}\r\n`),
    status: 404,
  },
  {
    name: 'control plane with %2F',
    request: (w) => get('/_sandbox%2Fclock', `Authorization: Bearer ${w.admin}\r\n`),
    status: 404,
  },
  {
    name: 'Idempotency-Key with a Latin-1 é',
    request: (w) =>
      json(
        w,
        '/api/public/v1/webhooks',
        '{"url":"http://127.0.0.1:9/x","events":["order.paid"]}',
        'Idempotency-Key: caf\xe9-key-0001\r\n',
      ),
    status: 400,
    detail: /Idempotency-Key must match/,
  },
  {
    name: 'Idempotency-Key ending in a no-break space',
    request: (w) =>
      json(
        w,
        '/api/public/v1/webhooks',
        '{"url":"http://127.0.0.1:9/x","events":["order.paid"]}',
        'Idempotency-Key: round6-key-nbsp\xa0\r\n',
      ),
    status: 400,
    detail: /Idempotency-Key must match/,
  },
  {
    name: 'Service-Version twice',
    request: (w) => get(PROVIDERS, `${bearer(w)}Service-Version: 2026-07-01\r\nService-Version: 2026-06-12\r\n`),
    status: 400,
    detail: /Service-Version/,
  },
  {
    name: 'X-HTTP-Method-Override: DELETE on a POST',
    request: (w) =>
      json(
        w,
        '/api/public/v1/webhooks/wh_x',
        '{}',
        'X-HTTP-Method-Override: DELETE\r\nIdempotency-Key: round6-override-1\r\n',
      ),
    status: 404,
    detail: /answers GET, DELETE/,
  },
  {
    name: '?_method=DELETE on a POST',
    request: (w) =>
      json(w, '/api/public/v1/webhooks/wh_x?_method=DELETE', '{}', 'Idempotency-Key: round6-override-2\r\n'),
    status: 404,
  },
  {
    name: 'Origin: null with a token (sandboxed frame)',
    request: (w) => get(PROVIDERS, `${bearer(w)}Origin: null\r\n`),
    status: 403,
    detail: /Origin header together with an Authorization/,
  },
  {
    name: 'X-Forwarded-Host and Forwarded on the OAuth metadata',
    request: () =>
      get(
        '/.well-known/oauth-authorization-server',
        'X-Forwarded-Host: evil.example\r\nX-Forwarded-Proto: https\r\nForwarded: host=evil.example;proto=https\r\n',
      ),
    status: 200,
    absent: 'evil.example',
  },
];
