// The round-6 one-request attacks on bodies, the OAuth token endpoint and stream cursors, as data (the
// framing and access ones: attacks-round6-cases.ts).
import { CHECK, CRED, form, json, post, type RawCase } from './attacks-round6-cases.ts';

/** JSON bodies at the edges. */
export const BODIES: RawCase[] = [
  {
    name: 'trailing comma',
    request: (w) => json(w, CHECK, '{"connectorId":"tillcraft-pos-cloud","capability":"orders.read",}'),
    status: 400,
    detail: /not valid JSON/,
  },
  {
    name: 'NaN',
    request: (w) =>
      json(w, CHECK, '{"connectorId":"tillcraft-pos-cloud","capability":"orders.read","environment":NaN}'),
    status: 400,
    detail: /not valid JSON/,
  },
  {
    name: 'two JSON documents',
    request: (w) => json(w, CHECK, '{"connectorId":"tillcraft-pos-cloud","capability":"orders.read"}{}'),
    status: 400,
    detail: /not valid JSON/,
  },
  {
    name: 'a key twice at depth, once escaped',
    request: (w) =>
      post(
        '/_sandbox/trigger',
        `Authorization: Bearer ${w.admin}\r\nContent-Type: application/json\r\n`,
        `{"event":"order.paid","tenant":"${w.tenant}","data":{"a":{"b":1,"\\u0062":2}}}`,
      ),
    status: 400,
    detail: /key "b" twice/,
  },
  {
    name: 'an array for the body',
    request: (w) => json(w, CHECK, '[]'),
    status: 400,
    detail: /body must be of type object/,
  },
  {
    name: 'null for the body',
    request: (w) => json(w, CHECK, 'null'),
    status: 400,
    detail: /body must be of type object/,
  },
  {
    name: 'markup as connector id (not echoed)',
    request: (w) => json(w, CHECK, '{"connectorId":"<img src=x onerror=alert(1)>","capability":"orders.read"}'),
    status: 404,
    detail: /^No connector with the id given/,
  },
  {
    name: 'NUL in a connector id',
    request: (w) => json(w, CHECK, '{"connectorId":"tillcraft-pos-cloud\\u0000","capability":"orders.read"}'),
    status: 404,
  },
  {
    name: 'connector id in upper case',
    request: (w) => json(w, CHECK, '{"connectorId":"TILLCRAFT-POS-CLOUD","capability":"orders.read"}'),
    status: 404,
  },
  {
    name: 'environment "Sandbox"',
    request: (w) =>
      json(w, CHECK, '{"connectorId":"tillcraft-pos-cloud","capability":"orders.read","environment":"Sandbox"}'),
    status: 400,
    detail: /must be one of/,
  },
  {
    name: 'environment with a full-width s',
    request: (w) =>
      json(w, CHECK, '{"connectorId":"tillcraft-pos-cloud","capability":"orders.read","environment":"\\uff53andbox"}'),
    status: 400,
    detail: /must be one of/,
  },
  {
    name: 'event name with a Cyrillic i',
    request: (w) =>
      json(
        w,
        '/api/public/v1/webhooks',
        '{"url":"http://127.0.0.1:9/x","events":["order.pa\\u0456d"]}',
        'Idempotency-Key: round6-event-cyrillic\r\n',
      ),
    status: 400,
    detail: /events\.0 must be one of/,
  },
  {
    name: '60,000 unknown keys (detail bounded)',
    request: (w) => json(w, CHECK, `{${Array.from({ length: 60_000 }, (_, i) => `"k${i}":1`).join(',')}}`),
    status: 400,
    detail: /body field k0 is not a known field/,
  },
  {
    name: 'audit limit in Arabic-Indic digits',
    request: (w) =>
      `GET /api/public/v1/audit-log?limit=%D9%A5 HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: Bearer ${w.token}\r\nx-service-tenant: ${w.tenant}\r\nConnection: close\r\n\r\n`,
    status: 400,
    detail: /limit must be of type integer/,
  },
  {
    name: 'two charset parameters, the second Latin-1',
    request: (w) =>
      json(w, CHECK, '{"connectorId":"tillcraft-pos-cloud","capability":"orders.read"}', '').replace(
        'Content-Type: application/json',
        'Content-Type: application/json;charset=utf-8;charset=latin1',
      ),
    status: 400,
    detail: /charset latin1/,
  },
];

/** OAuth token endpoint abuse: each refused with an RFC 6749 error, or served as the RFC says. */
export const OAUTH: RawCase[] = [
  {
    name: 'grant_type twice (same value)',
    request: () => form(`grant_type=client_credentials&grant_type=client_credentials&${CRED}`),
    status: 400,
  },
  { name: 'grant_type password', request: () => form(`grant_type=password&${CRED}`), status: 400 },
  {
    name: 'grant_type device_code',
    request: () => form(`grant_type=urn:ietf:params:oauth:grant-type:device_code&${CRED}`),
    status: 400,
  },
  {
    name: 'grant_type jwt-bearer',
    request: () => form(`grant_type=urn:ietf:params:oauth:grant-type:jwt-bearer&${CRED}`),
    status: 400,
  },
  {
    name: 'grant_type token-exchange',
    request: () => form(`grant_type=urn:ietf:params:oauth:grant-type:token-exchange&${CRED}`),
    status: 400,
  },
  { name: 'grant_type in upper case', request: () => form(`grant_type=CLIENT_CREDENTIALS&${CRED}`), status: 400 },
  { name: 'grant_type with a NUL', request: () => form(`grant_type=client_credentials%00&${CRED}`), status: 400 },
  {
    name: '; as the separator',
    request: () => form(`grant_type=client_credentials;${CRED.replace('&', ';')}`),
    status: 400,
  },
  {
    name: 'client_id with a Unicode hyphen',
    request: () =>
      form(
        `grant_type=client_credentials&client_id=harbour%E2%80%90backend&client_secret=hk-sandbox-secret-5f2c9a7e1b3d4c60`,
      ),
    status: 401,
  },
  {
    name: 'secret with a trailing space',
    request: () => form(`grant_type=client_credentials&${CRED}%20`),
    status: 401,
  },
  {
    name: 'a 200 KB scope',
    request: () => form(`grant_type=client_credentials&${CRED}&scope=${'a'.repeat(200_000)}`),
    status: 400,
  },
  {
    name: 'a 100 KB refresh token',
    request: () => form(`grant_type=refresh_token&refresh_token=${'x'.repeat(100_000)}&${CRED}`),
    status: 400,
  },
  {
    name: '20,000 parameters',
    request: () =>
      form(`grant_type=client_credentials&${CRED}&${Array.from({ length: 20_000 }, (_, i) => `p${i}=1`).join('&')}`),
    status: 200,
  },
  {
    name: 'multipart form',
    request: () =>
      post(
        '/oauth/token',
        'Content-Type: multipart/form-data; boundary=x\r\n',
        `--x\r\nContent-Disposition: form-data; name="grant_type"\r\n\r\nclient_credentials\r\n--x--\r\n`,
      ),
    status: 400,
  },
];

/** Last-Event-ID / ?cursor forms: [value, accepted?]. Accepted ones open the stream (the answer is cut). */
export const CURSORS: [string, boolean][] = [
  ['01', true],
  ['00', true],
  ['1.0', false],
  ['1e0', false],
  ['-0', false],
  ['0x0', false],
  ['0b1', false],
  ['+1', false],
  ['Infinity', false],
  ['NaN', false],
  ['1 2', false],
  [`${'0'.repeat(300)}1`, false],
  ['18446744073709551616', false],
  ['9007199254740991', true],
];
