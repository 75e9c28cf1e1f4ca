import fc from 'fast-check';
import { CONTROL_ROUTES } from '../../control/routes.ts';
import { ROUTES } from '../../contract/route-table.ts';

const ALL_ROUTES = [...ROUTES, ...CONTROL_ROUTES];

const hostileString = fc.oneof(
  fc.string(),
  fc.string({ unit: 'grapheme', maxLength: 200 }),
  fc.constantFrom(
    '__proto__',
    'constructor',
    'prototype',
    '',
    ' ',
    '\u0000',
    '\uFEFF',
    '../../etc/passwd',
    '%00',
    '<script>',
    "'; DROP TABLE x;--",
  ),
  fc.integer({ min: 100, max: 5000 }).map((n) => 'x'.repeat(n)),
);

const jsonValue = fc.oneof(
  fc.json({ maxDepth: 4 }).map((t) => JSON.parse(t) as unknown),
  fc.dictionary(hostileString, fc.jsonValue({ maxDepth: 2 })),
  fc.record({
    connectorId: hostileString,
    capability: hostileString,
    environment: fc.oneof(hostileString, fc.constantFrom('sandbox', 'production')),
  }),
  fc.record({
    connectorId: fc.oneof(hostileString, fc.constant('tillcraft-pos-cloud')),
    environment: fc.oneof(hostileString, fc.constant('sandbox')),
    scopeLabel: hostileString,
    capabilities: fc.oneof(fc.array(hostileString, { maxLength: 30 }), hostileString, fc.integer()),
  }),
  fc.record({ operation: fc.oneof(hostileString, fc.integer()) }),
  fc.record({
    state: hostileString,
    seconds: fc.oneof(fc.double(), hostileString),
    kind: hostileString,
    count: fc.oneof(fc.integer(), hostileString),
  }),
  fc.constantFrom(
    { __proto__: { admin: true } },
    JSON.parse('{"__proto__":{"polluted":1},"constructor":{"prototype":{"x":1}}}'),
  ),
);

/** Valid bodies with at most one field replaced: reaches the handlers, not only validation. */
const nearlyValid = fc
  .record({
    template: fc.constantFrom<Record<string, unknown>>(
      {
        connectorId: 'tillcraft-pos-cloud',
        environment: 'sandbox',
        scopeLabel: 'Fuzz venue',
        capabilities: ['orders.read'],
      },
      { connectorId: 'tillcraft-pos-cloud', capability: 'orders.read' },
      { operation: 'connection.create' },
      { state: 'paused' },
      { seconds: 60 },
      { kind: 'latency', latencyMs: 0 },
    ),
    field: fc.constantFrom(
      'connectorId',
      'environment',
      'scopeLabel',
      'capabilities',
      'capability',
      'operation',
      'state',
      'seconds',
      'extra',
      undefined,
    ),
    value: fc.oneof(hostileString, fc.jsonValue({ maxDepth: 2 })),
  })
  .map(({ template, field, value }) => (field ? { ...template, [field]: value } : template));

const rawBody = fc.oneof(
  nearlyValid.map((v) => new TextEncoder().encode(JSON.stringify(v))),
  nearlyValid.map((v) => new TextEncoder().encode(JSON.stringify(v))),
  jsonValue.map((v) => new TextEncoder().encode(JSON.stringify(v))),
  fc.string().map((s) => new TextEncoder().encode(s)),
  fc.uint8Array({ maxLength: 200 }), // arbitrary bytes, mostly invalid UTF-8
  fc.integer({ min: 33, max: 5000 }).map((n) => new TextEncoder().encode('['.repeat(n) + ']'.repeat(n))),
  fc.integer({ min: 33, max: 2000 }).map((n) => new TextEncoder().encode('{"a":'.repeat(n) + '1' + '}'.repeat(n))),
  fc.constant(new Uint8Array([0x7b, 0x22, 0xff, 0xfe, 0x22, 0x3a, 0x31, 0x7d])),
);

const routeTarget = fc.constantFrom(...ALL_ROUTES).chain((r) =>
  fc.record({
    method: fc.oneof(
      { arbitrary: fc.constant(r.method), weight: 8 },
      {
        arbitrary: fc.constantFrom('GET', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS', 'HEAD', 'TRACE', 'get'),
        weight: 1,
      },
    ),
    path: fc.oneof(
      { arbitrary: fc.constant(r.path.replace(/\{[^}]+\}/g, 'con_x')), weight: 8 },
      {
        arbitrary: fc.constantFrom(
          `${r.path}/`,
          `${r.path}%`,
          `${r.path}/%E0%A4%A`,
          `${r.path}/..%2F..`,
          r.path.toUpperCase(),
          `${r.path}//x`,
        ),
        weight: 1,
      },
    ),
  }),
);
const target = fc.oneof(
  { arbitrary: routeTarget, weight: 9 },
  { arbitrary: fc.record({ method: fc.constantFrom('GET', 'POST'), path: fc.webPath() }), weight: 1 },
);
const weighted = <T>(common: fc.Arbitrary<T>, rare: fc.Arbitrary<T>) =>
  fc.oneof({ arbitrary: common, weight: 6 }, { arbitrary: rare, weight: 1 });

/** One hostile request: any route or path, any method, odd headers, odd query, odd body. */
export const hostileRequest = (credentials: { token: string; tenant: string; admin: string }) =>
  fc
    .record({
      target,
      query: fc.dictionary(
        fc.oneof(fc.constantFrom('category', 'capability', 'providerId', 'cursor', 'version', 'limit'), hostileString),
        fc.oneof(hostileString, fc.array(hostileString, { maxLength: 3 })),
        { maxKeys: 3 },
      ),
      auth: weighted(fc.constantFrom('valid', 'admin'), fc.constantFrom('none', 'garbage', 'basic')),
      tenant: weighted(
        fc.constant(credentials.tenant),
        fc.oneof(fc.constant(undefined), fc.constant('alpine-bistro'), hostileString),
      ),
      contentType: weighted(
        fc.constant('application/json'),
        fc.constantFrom(
          'application/json; charset=utf-8',
          'text/plain',
          'application/x-www-form-urlencoded',
          undefined,
          'application/vnd.api+json',
        ),
      ),
      idempotencyKey: weighted(
        fc.string({ minLength: 8, maxLength: 20, unit: fc.constantFrom(...'abcdefgh0123456789-'.split('')) }),
        fc.oneof(fc.constant(undefined), hostileString),
      ),
      serviceVersion: weighted(fc.constant(undefined), fc.constantFrom('2026-07-01', '2026-06-12', 'nope', '')),
      origin: weighted(fc.constant(undefined), fc.constant('https://shop.example')),
      body: fc.option(rawBody, { nil: undefined }),
    })
    .map((r) => {
      const headers: Record<string, string> = {};
      if (r.auth === 'valid') headers.authorization = `Bearer ${credentials.token}`;
      if (r.auth === 'admin') headers.authorization = `Bearer ${credentials.admin}`;
      if (r.auth === 'garbage') headers.authorization = 'Bearer \u0000garbage';
      if (r.auth === 'basic') headers.authorization = 'Basic dXNlcjpwYXNz';
      if (r.tenant !== undefined) headers['x-service-tenant'] = r.tenant;
      if (r.contentType) headers['content-type'] = r.contentType;
      if (r.idempotencyKey !== undefined) headers['idempotency-key'] = r.idempotencyKey;
      if (r.serviceVersion !== undefined) headers['service-version'] = r.serviceVersion;
      if (r.origin) headers.origin = r.origin;
      return {
        method: r.target.method.toUpperCase(),
        path: r.target.path,
        query: r.query,
        headers,
        ...(r.body ? { body: r.body } : {}),
      };
    });
