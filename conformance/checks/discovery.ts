import { ERROR_TABLE } from '../../simulator/contract/errors.ts';
import { BASE_PATH, SUPPORTED_VERSIONS } from '../../simulator/contract/versions.ts';
import type { Exchange } from '../client/http-client.ts';
import { fillPath, inBatches, interfaceRoute, interfaceRoutes } from '../rules/interface-routes.ts';
import { type CheckContext, defineCheck } from '../runner/check.ts';
import { listed } from './support/listed.ts';
import {
  deref,
  findOperation,
  type OpenApiLike,
  type OperationLike,
  openApiExchange,
  operationRequiresAuth,
  operationsOf,
  requireOpenApi,
  servedInEnvelope,
  successContent,
} from './support/openapi.ts';
import { validateOpenApi } from './support/openapi-validation.ts';
import { publicGet } from './support/public-get.ts';
import { sampleFromSchema } from './support/sample-body.ts';
import { judgeListedWithCredentials, requireSelfDescribedRoutes, routeKey } from './support/self-description.ts';

const UNAUTHORIZED = ERROR_TABLE.unauthorized.status;

export const publicEndpoints = defineCheck({
  name: 'discovery.public-endpoints',
  title:
    'the public endpoints answer 200 without credentials, and ask for none under an earlier published Service-Version either',
  severity: 'MUST',
  section: 'Authentication',
  tags: ['discovery', 'auth'],
  mutating: false,
  async run(ctx) {
    for (const r of interfaceRoutes().filter((x) => !x.auth && x.method === 'GET')) {
      const stream = r.kind === 'sse';
      const ex = stream
        ? await ctx.call('GET', fillPath(r.path), { credentials: 'none', readBody: false })
        : await publicGet(ctx, fillPath(r.path));
      if (!ctx.expect.status(ex, 200, `GET ${r.path} is public: it answers 200 without credentials`)) continue;
      if (stream) {
        ctx.expect.that((ex.headers['content-type'] ?? '').startsWith('text/event-stream'), {
          expected: `GET ${r.path} answers with content type text/event-stream`,
          observed: `content-type ${ex.headers['content-type'] ?? '(none)'}`,
          exchange: ex,
        });
      } else {
        ctx.expect.that(typeof ex.json === 'object' && ex.json !== null, {
          expected: `GET ${r.path} answers with a JSON object`,
          exchange: ex,
        });
      }
    }
    // Public under every published version: 2026-07-01 changed the reference and the delivery log,
    // 2026-06-12 the keys, neither who may read these. Refusing an earlier version is left open.
    for (const version of SUPPORTED_VERSIONS.filter((v) => v !== SUPPORTED_VERSIONS[0]))
      for (const r of interfaceRoutes().filter((x) => !x.auth && x.method === 'GET' && x.kind !== 'sse')) {
        const ex = await ctx.call('GET', fillPath(r.path), {
          credentials: 'none',
          headers: { 'Service-Version': version },
        });
        const problem = asksForCredentials(ex);
        ctx.expect.that(problem === undefined, {
          expected: `GET ${r.path} with Service-Version ${version} is public too: it does not ask for credentials (a refusal of the version itself is the deployment's choice)`,
          observed: problem,
          exchange: ex,
        });
      }
  },
});

/**
 * Why an answer to a call without credentials asks for them (401, 403, or their codes), else undefined.
 * @example asksForCredentials(ex) // 'answered 401 unauthorized without credentials'
 */
export function asksForCredentials(ex: Exchange): string | undefined {
  const code = (ex.json as { error?: { code?: unknown } } | undefined)?.error?.code;
  if (ex.status === 401 || ex.status === 403 || code === 'unauthorized' || code === 'forbidden')
    return `answered ${ex.status} ${typeof code === 'string' ? code : ''} without credentials`.trim();
  return undefined;
}

export const openApiValid = defineCheck({
  name: 'discovery.openapi-valid',
  title: 'openapi.json is a valid OpenAPI 3.1 document',
  severity: 'MUST',
  section: 'GET /api/public/v1/openapi.json',
  tags: ['discovery', 'openapi'],
  mutating: false,
  async run(ctx: CheckContext) {
    const ex = await openApiExchange(ctx);
    const doc = ex.json as OpenApiLike | undefined;
    ctx.require(ex.status === 200 && typeof doc === 'object' && doc !== null && !Array.isArray(doc), {
      expected: `GET ${BASE_PATH}/openapi.json answers 200 with a JSON object`,
      exchange: ex,
    });
    if (servedInEnvelope(ex))
      ctx.note('the document is served inside the success envelope (its data): read from there, as every JSON success');
    ctx.expect.that(typeof doc.openapi === 'string' && /^3\.1\.\d+$/.test(doc.openapi), {
      expected: 'the document declares openapi 3.1.x',
      observed: `openapi: ${JSON.stringify(doc.openapi)}`,
      exchange: ex,
    });
    const result = await validateOpenApi(doc);
    const errors = Array.isArray(result.errors)
      ? result.errors.map((e) => `${e.instancePath || '/'} ${e.message}`)
      : result.errors
        ? [String(result.errors)]
        : [];
    ctx.expect.that(result.valid, {
      expected: 'the document validates against the OpenAPI 3.1 schema (@seriousme/openapi-schema-validator)',
      observed: listed([...new Set(errors)], 8, ', ') || 'invalid',
      exchange: ex,
    });
  },
});

export const routesMatchOpenApi = defineCheck({
  name: 'discovery.routes-match-openapi',
  title: 'every route of the self-description is an operation of openapi.json (the document may list more)',
  // The interface lists routes in both but does not say the two lists are equal: the kit assumes the
  // document covers the self-description (the reference is generated from it), and a self-description
  // that is a subset of the document is legal.
  severity: 'SHOULD',
  section: 'GET /api/public/v1',
  tags: ['discovery', 'openapi'],
  mutating: false,
  async run(ctx) {
    const { ex, routes } = await requireSelfDescribedRoutes(ctx);
    const { doc } = await requireOpenApi(ctx);
    const described = new Set(routes.map(routeKey));
    const documented = new Set(operationsOf(doc).map(routeKey));
    const onlyDescribed = [...described].filter((k) => !documented.has(k));
    const onlyDocumented = [...documented].filter((k) => !described.has(k));
    ctx.expect.that(onlyDescribed.length === 0, {
      expected: 'every route of the self-description is an operation of openapi.json',
      observed: `missing from openapi.json: ${listed(onlyDescribed, 8, ', ')}`,
      exchange: ex,
    });
    if (onlyDocumented.length > 0)
      ctx.note(`openapi.json documents more than data.routes lists (legal): ${listed(onlyDocumented, 8, ', ')}`);
  },
});

export const interfaceRoutesListed = defineCheck({
  name: 'discovery.interface-routes-listed',
  title:
    "every endpoint of the interface is self-described with the interface's auth flag and documented in openapi.json",
  severity: 'MUST',
  section: 'Endpoints',
  tags: ['discovery'],
  mutating: false,
  async run(ctx) {
    const { ex, routes } = await requireSelfDescribedRoutes(ctx);
    const byKey = new Map(routes.map((r) => [routeKey(r), r]));
    for (const r of interfaceRoutes()) {
      const listedRoute = byKey.get(routeKey(r));
      if (
        !ctx.expect.that(listedRoute !== undefined, {
          expected: `the self-description lists ${r.method} ${r.path}`,
          observed: 'not listed',
          exchange: ex,
        }) ||
        listedRoute === undefined
      )
        continue;
      // RFC 9110 §9.1: the method token is case-sensitive; a client built from the list sends what it names.
      ctx.expect.that(listedRoute.method === r.method, {
        expected: `${r.method} ${r.path} is listed with its method as the Endpoints table names it (${r.method}: methods are case-sensitive)`,
        observed: `method ${JSON.stringify(listedRoute.method)}`,
        exchange: ex,
      });
      ctx.expect.that(listedRoute.auth === r.auth, {
        expected: `${r.method} ${r.path} is described with auth ${r.auth} (${r.auth ? 'authenticated' : 'public'} in the interface)`,
        observed: `auth ${listedRoute.auth}`,
        exchange: ex,
      });
    }
    if (ctx.target.hasToken) await judgeListedWithCredentials(ctx);
    const { ex: docEx, doc } = await requireOpenApi(ctx);
    const missing = interfaceRoutes()
      .filter((r) => !findOperation(doc, r.method, r.path))
      .map(routeKey);
    ctx.expect.that(missing.length === 0, {
      expected: 'openapi.json documents every endpoint of the interface',
      observed: `not documented: ${listed(missing, 8, ', ')}`,
      exchange: docEx,
    });
  },
});

async function probeWithoutCredentials(
  ctx: CheckContext,
  route: { method: string; path: string; auth: boolean },
  doc: OpenApiLike | undefined,
) {
  const op = doc ? findOperation(doc, route.method, route.path) : undefined;
  const stream =
    interfaceRoute(route.method, route.path)?.kind === 'sse' ||
    Boolean(doc && successContent(doc, route.method, route.path)?.content['text/event-stream']);
  const headers: Record<string, string> = {};
  let json: unknown;
  // Sent as the method it names (a listed `get` is judged by discovery.interface-routes-listed, not sent with a body).
  if (route.method.toUpperCase() !== 'GET') {
    const body = doc ? (deref(doc, op?.requestBody, []).value as OperationLike['requestBody']) : undefined;
    const schema = body?.content?.['application/json']?.schema;
    json = schema && doc ? sampleFromSchema(schema, doc, ctx.label('probe')) : {};
    if (op?.parameters?.some((p) => p.in === 'header' && p.name?.toLowerCase() === 'idempotency-key'))
      headers['Idempotency-Key'] = ctx.label('key');
  }
  // A public GET read whole is the run's shared read of it: the same request, made once a run.
  if (route.method.toUpperCase() === 'GET' && !stream && !route.auth) return publicGet(ctx, fillPath(route.path));
  return ctx.call(route.method, fillPath(route.path), {
    credentials: 'none',
    headers,
    ...(json !== undefined ? { json } : {}),
    readBody: !stream,
  });
}

export const authFlagsObserved = defineCheck({
  name: 'discovery.auth-flags-observed',
  title: 'routes described with auth answer 401 without credentials; the others do not',
  severity: 'MUST',
  section: 'GET /api/public/v1',
  tags: ['discovery', 'auth'],
  mutating: false,
  async run(ctx) {
    const { routes } = await requireSelfDescribedRoutes(ctx);
    const doc = await openApiExchange(ctx).then((ex) => (ex.status === 200 ? (ex.json as OpenApiLike) : undefined));
    // A public route that is not a GET may modify data even without credentials: not probed.
    const probed = routes.filter((r) => r.auth || r.method.toUpperCase() === 'GET');
    for (const r of routes.filter((x) => !probed.includes(x)))
      ctx.note(`${r.method} ${r.path} is public and not a GET: not probed`);
    await inBatches(probed, 4, async (r) => {
      const ex = await probeWithoutCredentials(ctx, r, doc);
      // A route of the deployment's own with an id in its path is probed with an id the kit made up: a router
      // that checks the id's form (digits only) answers 404 before authentication, which says nothing of the
      // route's auth ("Format of identifiers ... not shown"). Served without credentials would still fail.
      if (
        r.auth &&
        ex.status === ERROR_TABLE.not_found.status &&
        /\{[^}]+\}/.test(r.path) &&
        !interfaceRoute(r.method, r.path)
      ) {
        ctx.note(`${r.method} ${r.path} answered 404 to a made-up id without credentials: its auth not observed`);
        return;
      }
      if (r.auth)
        ctx.expect.status(
          ex,
          UNAUTHORIZED,
          `${r.method} ${r.path} is described with auth true: without credentials it answers ${UNAUTHORIZED}`,
        );
      else
        ctx.expect.that(ex.status !== UNAUTHORIZED && ex.status !== ERROR_TABLE.forbidden.status, {
          expected: `${r.method} ${r.path} is described with auth false: it answers without credentials`,
          exchange: ex,
        });
    });
  },
});

export const openApiSecurityMatchesAuth = defineCheck({
  name: 'discovery.openapi-security-matches-auth',
  title: "openapi.json's security requirements agree with the self-description's auth flags",
  severity: 'SHOULD',
  section: 'GET /api/public/v1/openapi.json',
  tags: ['discovery', 'openapi', 'auth'],
  mutating: false,
  async run(ctx) {
    const { routes } = await requireSelfDescribedRoutes(ctx);
    const { ex, doc } = await requireOpenApi(ctx);
    const disagree = routes.flatMap((r) => {
      const op = findOperation(doc, r.method, r.path);
      return op && operationRequiresAuth(doc, op) !== r.auth
        ? [`${routeKey(r)} (auth ${r.auth}, security ${JSON.stringify(op.security ?? doc.security ?? [])})`]
        : [];
    });
    ctx.expect.that(disagree.length === 0, {
      expected: 'an operation requires security exactly when its route is described with auth true',
      observed: listed(disagree, 8, ', '),
      exchange: ex,
    });
  },
});

export const discoveryChecks = [
  publicEndpoints,
  openApiValid,
  routesMatchOpenApi,
  interfaceRoutesListed,
  authFlagsObserved,
  openApiSecurityMatchesAuth,
];
