import { describe, expect, it } from 'vitest';
import { buildOpenApiDocument } from '../../simulator/contract/openapi.ts';
import type { Exchange } from '../client/exchange.ts';
import { composedOpenApi } from '../e2e/alt-openapi-composed.ts';
import { interfaceRoute } from '../rules/interface-routes.ts';
import { limitHeadersNotNumeric } from './openapi-limit-headers.ts';
import { securityNotBearer } from './openapi-requests.ts';
import { undeclaredTemplateParameters } from './openapi-templates.ts';
import type { OpenApiLike } from './support/openapi.ts';
import { styleCandidates } from './support/openapi-parameters.ts';
import { optionalBodies } from './support/openapi-required-judge.ts';
import { currentVersion, judgeServedHeaders, judgeServedParameters } from './support/openapi-served-judge.ts';
import { compileDocument } from './support/response-schemas.ts';

// biome-ignore lint/suspicious/noExplicitAny: the tests edit documents of any shape freely
type Json = Record<string, any>;
const simulatorDoc = (): Json => structuredClone(buildOpenApiDocument()) as Json;
const P = (path: string) => `/api/public/v1${path}`;
const doc = (d: Json) => d as OpenApiLike;
const METHODS = ['get', 'post', 'delete'];

function exchange(method: string, path: string, over: Partial<Exchange> = {}): Exchange {
  return {
    method,
    url: `http://127.0.0.1:4010${path}`,
    requestHeaders: {},
    status: 200,
    headers: {},
    text: '',
    json: undefined,
    durationMs: 1,
    attempts: 1,
    ...over,
  };
}
const routed = (method: string, path: string, url: string, over: Partial<Exchange> = {}) => {
  const route = interfaceRoute(method, P(path));
  if (!route) throw new Error(`no interface route ${method} ${path}`);
  return { route, ex: exchange(method, url, over) };
};

describe('openapi.path-parameters-declared', () => {
  it("passes the simulator's documents (plain and composed: path items as references)", () => {
    expect(undeclaredTemplateParameters(doc(simulatorDoc()))).toEqual([]);
    expect(undeclaredTemplateParameters(doc(composedOpenApi(simulatorDoc())))).toEqual([]);
  });

  it('names each operation whose template expression no path parameter declares; the path item may declare it', () => {
    const d = simulatorDoc();
    for (const item of Object.values(d.paths) as Json[])
      for (const m of METHODS)
        if (item[m]?.parameters) item[m].parameters = item[m].parameters.filter((p: Json) => p.in !== 'path');
    const missing = undeclaredTemplateParameters(doc(d));
    expect(missing).toContain(`GET ${P('/connections/{connectionId}')}: {connectionId}`);
    expect(missing.every((m) => m.includes('{'))).toBe(true);
    d.paths[P('/connections/{connectionId}')].parameters = [
      { name: 'connectionId', in: 'path', required: true, schema: { type: 'string' } },
    ];
    expect(undeclaredTemplateParameters(doc(d))).not.toContain(
      `GET ${P('/connections/{connectionId}')}: {connectionId}`,
    );
    // A parameter of another name, or in the query, does not fill the template.
    const wrong = {
      paths: {
        '/a/{id}': {
          get: {
            parameters: [
              { name: 'id', in: 'query' },
              { name: 'ID', in: 'path' },
            ],
          },
        },
      },
    };
    expect(undeclaredTemplateParameters(doc(wrong))).toEqual(['GET /a/{id}: {id}']);
  });
});

describe('openapi.security-bearer: an empty requirement among the alternatives', () => {
  it('fails an authenticated operation that also offers {} (anonymous), wherever it stands', () => {
    expect(securityNotBearer(doc(simulatorDoc()))).toEqual([]);
    const d = simulatorDoc();
    const post = d.paths[P('/connections')].post;
    post.security = [...post.security, {}];
    expect(securityNotBearer(doc(d))).toEqual([
      expect.stringMatching(/^POST \/api\/public\/v1\/connections: an empty requirement/),
    ]);
    post.security = [{}, ...post.security.slice(0, -1)];
    expect(securityNotBearer(doc(d))).toHaveLength(1);
  });
});

describe('openapi.required-not-wider: the request body itself', () => {
  it('names a body with required fields documented required: false or without required', () => {
    expect(optionalBodies(doc(simulatorDoc()))).toEqual([]);
    const d = simulatorDoc();
    d.paths[P('/capabilities')].post.requestBody.required = false;
    delete d.paths[P('/connections')].post.requestBody.required;
    const found = optionalBodies(doc(d)).map((f) => `${f.route.method} ${f.route.path} ${f.value}`);
    expect(found).toEqual([
      `POST ${P('/capabilities')} the request body (required: false)`,
      `POST ${P('/connections')} the request body (no required (false))`,
    ]);
  });
});

describe('openapi.limit-headers-numeric', () => {
  it("passes the simulator's integers and a documented either-or, fails a date and a policy text", () => {
    expect(limitHeadersNotNumeric(doc(simulatorDoc()), compileDocument(doc(simulatorDoc()))).wrong).toEqual([]);
    const d = simulatorDoc();
    d.components.headers['Retry-After'].schema = { oneOf: [{ type: 'integer' }, { type: 'string', format: 'date' }] };
    expect(limitHeadersNotNumeric(doc(d), compileDocument(doc(d))).wrong).toEqual([]);
    d.components.headers['Retry-After'].schema = { type: 'string', format: 'date-time' };
    d.components.headers['X-RateLimit-Remaining'].schema = { type: 'integer', minimum: 1 };
    const wrong = limitHeadersNotNumeric(doc(d), compileDocument(doc(d))).wrong;
    expect(wrong).toHaveLength(2);
    expect(wrong.find((w) => w.startsWith('Retry-After'))).toMatch(/refuses "5"/);
    expect(wrong.find((w) => w.startsWith('X-RateLimit-Remaining'))).toMatch(/refuses "0"/);
  });
});

describe('the run held against the document (openapi.parameters-admit-served, openapi.response-headers-admit-served)', () => {
  it('reads a wire value as the simple and form styles do', () => {
    expect(styleCandidates('5')).toEqual(['5', 5, ['5'], [5]]);
    expect(styleCandidates(['a', '2'])).toEqual([
      ['a', '2'],
      ['a', 2],
    ]);
  });

  it("judges the run's tenant, in any letter case of the header's name, and the catalog's own values; not made-up ones", () => {
    const d = simulatorDoc();
    const schemas = () => compileDocument(doc(d));
    const providers = { ok: true, data: { count: 1, providers: [{ id: 'p1', category: 'pos-systems' }] } };
    const answered = [
      routed('GET', '/providers', P('/providers'), {
        requestHeaders: { 'X-Service-Tenant': 'harbour-kitchens' },
        json: providers,
      }),
      routed('GET', '/providers', P('/providers?category=pos-systems'), {
        requestHeaders: { 'x-service-tenant': 'harbour-kitchens' },
      }),
      routed('GET', '/providers', P('/providers?category=made_up'), {
        requestHeaders: { 'x-service-tenant': 'someone' },
      }),
    ];
    const clean = judgeServedParameters(doc(d), schemas(), answered, ['harbour-kitchens']);
    expect(clean.offenders).toEqual([]);
    expect(clean.unjudged).toBe(2); // the made-up category and a tenant that is not the run's
    for (const item of Object.values(d.paths) as Json[])
      for (const m of METHODS)
        for (const p of item[m]?.parameters ?? []) {
          if (p.name === 'x-service-tenant') p.schema = { type: 'string', pattern: '^[a-z0-9]{3,40}$' };
          if (p.name === 'category') p.schema = { type: 'string', enum: ['made_up'] };
        }
    const found = judgeServedParameters(doc(d), schemas(), answered, ['harbour-kitchens']).offenders;
    expect(found.map((o) => [o.label, o.value, o.count])).toEqual([
      [`GET ${P('/providers')} header x-service-tenant`, 'harbour-kitchens', 2],
      [`GET ${P('/providers')} query category`, 'pos-systems', 1],
    ]);
  });

  it("judges a value within the contract's limits (Idempotency-Key), and leaves another version's calls to its document", () => {
    const d = simulatorDoc();
    const key = d.paths[P('/connections')].post.parameters.find((p: Json) => p.name === 'Idempotency-Key');
    key.schema = { type: 'string', pattern: '^[A-Za-z0-9]{8,128}$' };
    const created = routed('POST', '/connections', P('/connections'), {
      requestHeaders: { 'idempotency-key': 'run-1.key:a' },
    });
    expect(judgeServedParameters(doc(d), compileDocument(doc(d)), [created], []).offenders).toHaveLength(1);
    expect(currentVersion(created.ex)).toBe(true);
    expect(
      currentVersion(exchange('GET', P('/providers'), { requestHeaders: { 'Service-Version': '2026-06-12' } })),
    ).toBe(false);
  });

  it("judges documented response headers by the answer's status, in any letter case, integers parsed", () => {
    const d = simulatorDoc();
    const limited = routed('GET', '/providers', P('/providers'), {
      status: 429,
      headers: {
        'retry-after': '5',
        'x-ratelimit-limit': '100',
        'x-ratelimit-remaining': '0',
        'x-request-id': 'req_1',
      },
    });
    expect(judgeServedHeaders(doc(d), compileDocument(doc(d)), [limited])).toEqual({ offenders: [], judged: 4 });
    d.components.headers['Retry-After'].schema = { type: 'string', format: 'date-time' };
    const found = judgeServedHeaders(doc(d), compileDocument(doc(d)), [limited]).offenders;
    expect(found.map((o) => [o.label, o.value])).toEqual([[`GET ${P('/providers')} 429 Retry-After`, '5']]);
    // A 200 documents no Retry-After: an answer carrying one anyway is not judged by it.
    const ok = routed('GET', '/providers', P('/providers'), { headers: { 'retry-after': 'soon' } });
    expect(judgeServedHeaders(doc(d), compileDocument(doc(d)), [ok]).offenders).toEqual([]);
  });
});
