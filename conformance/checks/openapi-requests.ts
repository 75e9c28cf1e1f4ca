// openapi.json describes requests as the interface takes them: authenticated operations by a bearer token in
// the Authorization header ("Authorization: Bearer token obtained through an OAuth flow"), and the bodies the
// interface shows as JSON ("Body (JSON)") with a JSON media type. A description generated for clients ("the
// endpoint reference is generated from the published description") that says otherwise sends them astray.
import { z } from 'zod';
import { interfaceQuery, interfaceRoutes } from '../rules/interface-routes.ts';
import { type CheckContext, defineCheck } from '../runner/check.ts';
import { listed } from './support/listed.ts';
import { deref, type OpenApiLike, operationLocation, requireOpenApi, serverBasePath } from './support/openapi.ts';

type Json = Record<string, unknown>;
const isObject = (v: unknown): v is Json => !!v && typeof v === 'object' && !Array.isArray(v);

/**
 * Whether a security scheme is met by a bearer token in the Authorization header: http bearer, OAuth 2.0,
 * OpenID Connect, or an API key the document puts in the Authorization header itself.
 * @example bearerCapable({ type: 'apiKey', in: 'query', name: 'access_token' }) // false
 */
export function bearerCapable(scheme: unknown): boolean {
  if (!isObject(scheme)) return false;
  const type = String(scheme.type ?? '').toLowerCase();
  if (type === 'oauth2' || type === 'openidconnect') return true;
  if (type === 'http') return String(scheme.scheme ?? '').toLowerCase() === 'bearer';
  return type === 'apikey' && scheme.in === 'header' && String(scheme.name ?? '').toLowerCase() === 'authorization';
}

/**
 * The authenticated interface operations whose documented security no bearer token in the Authorization header
 * satisfies: every alternative (requirement object) names a scheme that is none of those, or one alternative is
 * empty (`{}`: no credentials at all). An operation the document leaves unsecured (no requirement) is
 * discovery.openapi-security-matches-auth's to judge.
 */
export function securityNotBearer(doc: OpenApiLike): string[] {
  const schemes = isObject(doc.components?.securitySchemes) ? (doc.components.securitySchemes as Json) : {};
  const scheme = (name: string) => deref(doc, schemes[name], ['components', 'securitySchemes', name]).value;
  const out: string[] = [];
  for (const route of interfaceRoutes().filter((r) => r.auth)) {
    const loc = operationLocation(doc, route.method, route.path);
    if (!loc) continue;
    const security = loc.op.security ?? doc.security;
    if (!Array.isArray(security) || security.length === 0) continue;
    // An empty requirement among the alternatives lets a call without any credentials through (OpenAPI 3.1
    // §4.8.30: "To make security optional, an empty security requirement ({}) can be included").
    if (security.some((req) => isObject(req) && Object.keys(req).length === 0)) {
      out.push(
        `${route.method} ${route.path}: an empty requirement {} among ${JSON.stringify(security)} makes it anonymous`,
      );
      continue;
    }
    const met = security.some(
      (req) => isObject(req) && Object.keys(req).length > 0 && Object.keys(req).some((n) => bearerCapable(scheme(n))),
    );
    if (!met)
      out.push(
        `${route.method} ${route.path}: ${security.flatMap((req) => (isObject(req) ? Object.keys(req).map((n) => `${n} ${JSON.stringify(scheme(n) ?? 'undefined')}`) : [])).join(', ') || 'no scheme'}`,
      );
  }
  return out;
}

export const securityBearer = defineCheck({
  name: 'openapi.security-bearer',
  title:
    'openapi.json secures the authenticated operations with a scheme a bearer token in the Authorization header meets (http bearer, OAuth 2.0, OpenID Connect), with no empty ({}, anonymous) alternative',
  severity: 'MUST',
  section: 'Authentication',
  tags: ['openapi', 'auth'],
  mutating: false,
  async run(ctx: CheckContext) {
    const { ex, doc } = await requireOpenApi(ctx);
    const wrong = securityNotBearer(doc);
    ctx.expect.that(wrong.length === 0, {
      expected:
        'every authenticated operation is documented as taking the bearer token in the Authorization header ("Authorization: Bearer token obtained through an OAuth flow")',
      observed: listed(wrong),
      exchange: ex,
    });
  },
});

/** Interface operations with a JSON body whose description lists no JSON request content (or no body at all). */
export function bodiesNotJson(doc: OpenApiLike): string[] {
  const out: string[] = [];
  for (const route of interfaceRoutes().filter((r) => r.body !== undefined)) {
    const loc = operationLocation(doc, route.method, route.path);
    if (!loc) continue;
    const body = deref(doc, loc.op.requestBody, [...loc.at, 'requestBody']).value;
    const content = isObject(body) && isObject(body.content) ? Object.keys(body.content) : [];
    if (!content.some((t) => /^application\/(?:[\w.+-]+\+)?json\b/i.test(t)))
      out.push(`${route.method} ${route.path}: ${content.length ? content.join(', ') : 'no request body documented'}`);
  }
  return out;
}

export const requestBodyJson = defineCheck({
  name: 'openapi.request-body-json',
  title: 'openapi.json documents the request body of each operation that takes one as JSON (application/json)',
  severity: 'MUST',
  section: 'Endpoints',
  tags: ['openapi'],
  mutating: false,
  async run(ctx: CheckContext) {
    const { ex, doc } = await requireOpenApi(ctx);
    const wrong = bodiesNotJson(doc);
    ctx.expect.that(wrong.length === 0, {
      expected:
        'every operation the interface gives a JSON body ("Body (JSON)") documents application/json request content',
      observed: listed(wrong),
      exchange: ex,
    });
  },
});

/**
 * Body fields whose documented `default` is not the one the interface states ("environment ... default
 * sandbox"), read from the contract's field descriptions; a field documented without a default says nothing.
 * @example defaultsDiffer(doc) // ['POST /api/public/v1/capabilities: environment defaults to "production" (the interface: sandbox)']
 */
export function defaultsDiffer(doc: OpenApiLike): string[] {
  const out: string[] = [];
  for (const route of interfaceRoutes().filter((r) => r.body !== undefined)) {
    type Props = {
      properties?: Record<string, { description?: string }>;
      $ref?: string;
      $defs?: Record<string, Props>;
    };
    const root = z.toJSONSchema(route.body as z.ZodType, { io: 'input', unrepresentable: 'any' }) as Props;
    const contract = root.$ref ? (root.$defs?.[root.$ref.replace('#/$defs/', '')] ?? root) : root;
    const stated = Object.entries(contract.properties ?? {}).flatMap(([name, p]) => {
      const value = /default (\w+)/i.exec(p.description ?? '')?.[1];
      return value ? [[name, value] as const] : [];
    });
    if (stated.length === 0) continue;
    const loc = operationLocation(doc, route.method, route.path);
    const body = loc ? deref(doc, loc.op.requestBody, []).value : undefined;
    const content = isObject(body) && isObject(body.content) ? body.content : {};
    const type = Object.keys(content).find((t) => /^application\/(?:[\w.+-]+\+)?json\b/i.test(t));
    const schema = type && isObject(content[type]) ? deref(doc, content[type].schema, []).value : undefined;
    const props = isObject(schema) && isObject(schema.properties) ? schema.properties : {};
    for (const [name, value] of stated) {
      // A default beside a $ref (OpenAPI 3.1 allows siblings) or on the schema it points at.
      const raw = props[name];
      const documented = isObject(raw) && 'default' in raw ? raw : deref(doc, raw, []).value;
      if (isObject(documented) && 'default' in documented && documented.default !== value)
        out.push(
          `${route.method} ${route.path}: ${name} defaults to ${JSON.stringify(documented.default)} (the interface: ${value})`,
        );
    }
  }
  return out;
}

export const defaultsMatch = defineCheck({
  name: 'openapi.defaults-match',
  title:
    'openapi.json gives a body field the default the interface states, where it documents one (environment: sandbox)',
  severity: 'MUST',
  section: 'POST /api/public/v1/capabilities',
  tags: ['openapi'],
  mutating: false,
  async run(ctx: CheckContext) {
    const { ex, doc } = await requireOpenApi(ctx);
    const wrong = defaultsDiffer(doc);
    ctx.expect.that(wrong.length === 0, {
      expected: 'a documented default is the interface\'s ("environment | string | no | Environment; default sandbox")',
      observed: listed(wrong),
      exchange: ex,
    });
  },
});

/**
 * Path keys that already start with the base path the document's `servers` put before every path: each
 * resolves to the base path twice (OpenAPI 3.1 §4.8.1: a path is appended to the server URL).
 * @example doubledPaths({ servers: [{ url: '/api/public/v1' }], paths: { '/api/public/v1/providers': {} } }) // ['/api/public/v1/api/public/v1/providers']
 */
export function doubledPaths(doc: OpenApiLike): string[] {
  const base = serverBasePath(doc);
  if (!base || !isObject(doc.paths)) return [];
  return Object.keys(doc.paths)
    .filter((k) => k === base || k.startsWith(`${base}/`))
    .map((k) => `${base}${k}`);
}

export const pathsUnderServers = defineCheck({
  name: 'openapi.paths-resolve',
  title: "openapi.json's paths resolve under its servers to the interface's paths (the base path once)",
  severity: 'MUST',
  section: 'GET /api/public/v1/openapi.json',
  tags: ['openapi'],
  mutating: false,
  async run(ctx: CheckContext) {
    const { ex, doc } = await requireOpenApi(ctx);
    const doubled = doubledPaths(doc);
    ctx.expect.that(doubled.length === 0, {
      expected: `every documented path appended to the servers' URL (${serverBasePath(doc) || '/'}) is an interface path ("All paths start with /api/public/v1")`,
      observed: `the base path twice: ${listed(doubled)}`,
      exchange: ex,
    });
  },
});

/**
 * The contract's query parameters and route headers (GET /connectors' filters, the stream's cursor and
 * Last-Event-ID, a keyed call's Idempotency-Key) an operation's description leaves out (its own parameters or
 * its path item's; a header also as an API-key security scheme of that name).
 * @example parametersMissing(doc) // ['GET /api/public/v1/stream: header Last-Event-ID']
 */
export function parametersMissing(doc: OpenApiLike): string[] {
  const schemes = isObject(doc.components?.securitySchemes) ? Object.values(doc.components.securitySchemes) : [];
  const headerSchemes = new Set(
    schemes
      .map((sc) => deref(doc, sc, []).value)
      .filter((sc): sc is Json => isObject(sc) && sc.type === 'apiKey' && sc.in === 'header')
      .map((sc) => String(sc.name).toLowerCase()),
  );
  const out: string[] = [];
  // The description's own download query and the further parameters of an answer the interface shows as a
  // sample call only ("further parameters: not shown") are the simulator's, not the interface's; what such a
  // call shows (the audit log's limit, the registration's Idempotency-Key) is the interface's.
  for (const route of interfaceRoutes().filter((r) => (r.kind ?? 'json') !== 'document')) {
    const loc = operationLocation(doc, route.method, route.path);
    if (!loc) continue;
    const wanted = [
      ...interfaceQuery(route).map((name) => ({ in: 'query', name })),
      ...(route.fieldsNotShown ? [] : Object.keys(route.headers?.shape ?? {})).map((name) => ({ in: 'header', name })),
      ...(route.idempotent ? [{ in: 'header', name: 'Idempotency-Key' }] : []),
      // "x-service-tenant: identifier of the tenant for which the call applies", a header (not a cookie).
      ...(route.auth ? [{ in: 'header', name: 'x-service-tenant' }] : []),
    ];
    const listed = [loc.op, loc.item].flatMap((owner) =>
      (Array.isArray((owner as { parameters?: unknown }).parameters)
        ? (owner as { parameters: unknown[] }).parameters
        : []
      )
        .map((p) => deref(doc, p, []).value)
        .filter((p): p is Json => isObject(p) && typeof p.name === 'string' && typeof p.in === 'string'),
    );
    const documented = (w: { in: string; name: string }) =>
      listed.some(
        (p) =>
          p.in === w.in &&
          (w.in === 'header' ? String(p.name).toLowerCase() === w.name.toLowerCase() : p.name === w.name),
      ) ||
      (w.in === 'header' && headerSchemes.has(w.name.toLowerCase()));
    for (const w of wanted.filter((x) => !documented(x))) out.push(`${route.method} ${route.path}: ${w.in} ${w.name}`);
  }
  return out;
}

export const parametersDocumented = defineCheck({
  name: 'openapi.parameters-documented',
  title:
    "openapi.json documents each operation's query parameters and headers the interface gives it (filters, cursor, Last-Event-ID, Idempotency-Key, x-service-tenant), each where the interface puts it",
  severity: 'SHOULD',
  section: 'GET /api/public/v1/openapi.json',
  tags: ['openapi'],
  mutating: false,
  async run(ctx: CheckContext) {
    const { ex, doc } = await requireOpenApi(ctx);
    const missing = parametersMissing(doc);
    ctx.expect.that(missing.length === 0, {
      expected:
        'every query parameter and header of the interface\'s tables is documented on its operation ("the endpoint reference is generated from the published description")',
      observed: `not documented: ${listed(missing)}`,
      exchange: ex,
    });
  },
});

export const openApiRequestChecks = [
  securityBearer,
  requestBodyJson,
  defaultsMatch,
  pathsUnderServers,
  parametersDocumented,
];
