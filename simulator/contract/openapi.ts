import { OpenAPIRegistry, OpenApiGeneratorV31 } from '@asteasolutions/zod-to-openapi';
import { z } from 'zod';
import { FailureEnvelope, successEnvelope } from './envelope.ts';
import { ERROR_TABLE, type ErrorCode } from './errors.ts';
import { IdempotencyKey } from './idempotency.ts';
import type { RouteDef } from './route-def.ts';
import { routesFor } from './route-table.ts';
import { SCOPES } from './scopes.ts';
import { CURRENT_VERSION, type ApiVersion } from './versions.ts';

export interface OpenApiOptions {
  version?: ApiVersion;
  /** Server URLs written into `servers` (the simulator passes its base URLs). */
  servers?: string[];
  /** Path of the OAuth token endpoint shown in the security scheme. */
  tokenUrl?: string;
  authorizationUrl?: string;
  /**
   * Only what the simulator's router reads: paths, parameters, headers and request bodies, with every
   * operation's `responses` left empty. Generating the responses is about three quarters of the work
   * (~40 ms of each start from source); the published documents always carry them.
   */
  forRouting?: boolean;
}

const COMMON_ERRORS: ErrorCode[] = ['invalid_request', 'unauthorized', 'forbidden', 'rate_limited', 'internal'];

function errorCodesOf(route: RouteDef): ErrorCode[] {
  const codes = new Set<ErrorCode>(
    route.auth || route.optionalAuth ? COMMON_ERRORS : ['invalid_request', 'rate_limited', 'internal'],
  );
  if (route.idempotent) for (const c of ['idempotency_required', 'idempotency_conflict'] as const) codes.add(c);
  for (const c of route.errors ?? []) codes.add(c);
  return [...codes];
}

/** Response headers every answer carries, and those of authenticated, limited and refused answers. */
const RESPONSE_HEADERS = {
  'X-Request-Id': { description: 'Identifier of this call (the same as meta.requestId)', schema: { type: 'string' } },
  'X-RateLimit-Limit': { description: 'Calls allowed in the current window', schema: { type: 'integer' } },
  'X-RateLimit-Remaining': { description: 'Calls left in the current window', schema: { type: 'integer' } },
  'Retry-After': { description: 'Recommended wait in seconds before retrying', schema: { type: 'integer' } },
  'WWW-Authenticate': { description: 'Bearer challenge (RFC 6750) naming what was wrong', schema: { type: 'string' } },
} as const;
type ResponseHeader = keyof typeof RESPONSE_HEADERS;

function headerRefs(route: RouteDef, status: number) {
  const names: ResponseHeader[] = ['X-Request-Id'];
  if (route.auth || (route.optionalAuth && status !== 200)) names.push('X-RateLimit-Limit', 'X-RateLimit-Remaining');
  if (status === 429) names.push('Retry-After');
  if (status === 401 || status === 403) names.push('WWW-Authenticate');
  return Object.fromEntries(names.map((n) => [n, { $ref: `#/components/headers/${n}` }]));
}

function registerResponseHeaders(registry: OpenAPIRegistry) {
  for (const [name, header] of Object.entries(RESPONSE_HEADERS)) registry.registerComponent('headers', name, header);
}

/** A description from the route's own facts, so it never drifts from what is enforced. */
function describeRoute(route: RouteDef): string {
  const parts = [`${route.purpose[0]?.toUpperCase()}${route.purpose.slice(1)}.`];
  if (route.surface === 'control') parts.push('Sandbox control plane: needs the admin token printed by `ncs serve`.');
  else if (route.auth)
    parts.push(
      `Needs a bearer token${route.scope ? ` with scope \`${route.scope}\`` : ''} and the x-service-tenant header.`,
    );
  else if (route.optionalAuth)
    parts.push(
      `Public; with a bearer token${route.scope ? ` (scope \`${route.scope}\`)` : ''} and the x-service-tenant header it serves the tenant's messages.`,
    );
  else parts.push('Public: no authentication.');
  if (route.idempotent)
    parts.push('Modifying: needs an Idempotency-Key; the same key with the same content replays the first answer.');
  if (route.addition) parts.push('Added by the simulator: the interface does not list this path.');
  return parts.join(' ');
}

function responsesOf(route: RouteDef) {
  const responses: Record<string, { headers?: unknown } & Record<string, unknown>> = {};
  if (route.kind === 'sse') {
    responses['200'] = {
      description: 'Server-Sent Events stream',
      content: { 'text/event-stream': { schema: z.string() } },
    };
  } else if (route.kind === 'document') {
    responses['200'] = {
      description: 'The document itself (not enveloped, so OpenAPI tooling can read it directly)',
      content: {
        'application/json': { schema: z.record(z.string(), z.unknown()) },
        'application/yaml': { schema: z.string() },
      },
    };
  } else {
    responses['200'] = {
      description: 'Success envelope',
      content: { 'application/json': { schema: successEnvelope(route.data ?? z.object({})) } },
    };
  }
  const byStatus = new Map<number, ErrorCode[]>();
  for (const code of errorCodesOf(route)) {
    const status = ERROR_TABLE[code].status;
    byStatus.set(status, [...(byStatus.get(status) ?? []), code]);
  }
  for (const [status, codes] of [...byStatus].sort((a, b) => a[0] - b[0])) {
    responses[String(status)] = {
      description: `Failure envelope (${codes.join(', ')})`,
      content: { 'application/json': { schema: FailureEnvelope } },
    };
  }
  for (const [status, response] of Object.entries(responses)) response.headers = headerRefs(route, Number(status));
  return responses;
}

function headersOf(route: RouteDef) {
  const shape: Record<string, z.ZodType> = {};
  const iface = route.surface !== 'control' && route.surface !== 'inspector';
  if (iface && route.auth)
    shape['x-service-tenant'] = z.string().describe('Identifier of the tenant for which the call applies');
  if (iface && route.optionalAuth)
    shape['x-service-tenant'] = z
      .string()
      .optional()
      .describe('Identifier of the tenant (required together with a bearer token)');
  Object.assign(shape, route.headers?.shape);
  if (route.idempotent) shape['Idempotency-Key'] = IdempotencyKey;
  if (iface)
    shape['Service-Version'] = z.string().optional().describe('Interface version to answer with (default: current)');
  return z.object(shape);
}

/** Top-level tag descriptions; a route tag missing here fails the OpenAPI test. */
export const TAG_DESCRIPTIONS: Record<string, string> = {
  discovery: 'Self-description and the OpenAPI documents',
  catalog: 'Providers, connectors and capabilities of the network',
  connections: 'Connections of the tenant (connector, environment, capabilities)',
  idempotency: 'Idempotency keys for modifying calls',
  events: 'The live status stream (Server-Sent Events)',
  webhooks: 'Webhook receivers and their delivery log',
  audit: 'Audit log of the tenant with a proof of integrity',
  control: 'The sandbox control plane (not part of the interface)',
};

const INFO_COMMON = {
  contact: { name: 'ncs-sandbox maintainers' },
  license: { name: 'MIT', identifier: 'MIT' },
};

function tagsOf(routes: readonly RouteDef[]) {
  const names = [...new Set(routes.flatMap((r) => r.tags))];
  return names.map((name) => ({ name, description: TAG_DESCRIPTIONS[name] ?? name }));
}

/**
 * Served documents use a relative server ('/'): tools resolve it against the address the document was
 * fetched from, so the same document is right behind any host, port or proxy.
 */
const RELATIVE_SERVERS = ['/'];

type Security = (route: RouteDef) => Record<string, string[]>[];

function registerRoutes(
  registry: OpenAPIRegistry,
  routes: readonly RouteDef[],
  security: Security,
  withResponses = true,
) {
  for (const route of routes) {
    const body = route.body;
    registry.registerPath({
      method: route.method.toLowerCase() as 'get',
      path: route.path,
      operationId: route.id,
      summary: route.purpose,
      description: describeRoute(route),
      tags: route.tags,
      ...(route.addition ? { 'x-simulator-addition': true } : {}),
      security: security(route),
      request: {
        headers: headersOf(route),
        ...(route.query ? { query: route.query } : {}),
        ...(route.params ? { params: route.params } : {}),
        ...(body ? { body: { required: true, content: { 'application/json': { schema: body } } } } : {}),
      },
      responses: (withResponses ? responsesOf(route) : {}) as never,
    });
  }
}

/**
 * Builds the OpenAPI 3.1 document of one interface version from the route table.
 * @example const doc = buildOpenApiDocument({ version: '2026-07-01', servers: ['http://127.0.0.1:4010'] });
 */
export function buildOpenApiDocument(options: OpenApiOptions = {}) {
  const version = options.version ?? CURRENT_VERSION;
  const registry = new OpenAPIRegistry();
  registerResponseHeaders(registry);
  registry.registerComponent('securitySchemes', 'oauth2', {
    type: 'oauth2',
    description: 'Bearer token obtained through an OAuth 2.1 flow; send it as Authorization: Bearer <token>.',
    flows: {
      clientCredentials: { tokenUrl: options.tokenUrl ?? '/oauth/token', scopes: { ...SCOPES } },
      authorizationCode: {
        authorizationUrl: options.authorizationUrl ?? '/oauth/authorize',
        tokenUrl: options.tokenUrl ?? '/oauth/token',
        scopes: { ...SCOPES },
      },
    },
  });
  const routes = routesFor(version);
  registerRoutes(
    registry,
    routes,
    (route): Record<string, string[]>[] =>
      route.auth
        ? [{ oauth2: route.scope ? [route.scope] : [] }]
        : route.optionalAuth
          ? [{}, { oauth2: route.scope ? [route.scope] : [] }]
          : [],
    !options.forRouting,
  );
  const generator = new OpenApiGeneratorV31(registry.definitions);
  return generator.generateDocument({
    openapi: '3.1.0',
    info: {
      title: 'Network Connections Service public interface',
      version,
      description:
        'Generated by ncs-sandbox from its zod contract. Every JSON success uses the success envelope; every error the failure envelope.',
      ...INFO_COMMON,
    },
    servers: (options.servers ?? RELATIVE_SERVERS).map((url) => ({ url })),
    tags: tagsOf(routes),
  });
}
export type OpenApiDocument = ReturnType<typeof buildOpenApiDocument>;

/**
 * The sandbox control plane's own OpenAPI 3.1 document (admin bearer token, not part of the interface).
 * @example buildControlPlaneDocument(CONTROL_ROUTES, ['http://127.0.0.1:4010'])
 */
export function buildControlPlaneDocument(routes: readonly RouteDef[], servers: string[] = RELATIVE_SERVERS) {
  const registry = new OpenAPIRegistry();
  registerResponseHeaders(registry);
  registry.registerComponent('securitySchemes', 'admin', {
    type: 'http',
    scheme: 'bearer',
    description: 'The admin token printed by ncs serve (never a tenant token).',
  });
  registerRoutes(registry, routes, (route) => (route.auth ? [{ admin: [] }] : []));
  return new OpenApiGeneratorV31(registry.definitions).generateDocument({
    openapi: '3.1.0',
    info: {
      title: 'ncs-sandbox control plane',
      version: '1',
      description: "The simulator's own API: reset, connection states, clock, faults. Not part of the interface.",
      ...INFO_COMMON,
    },
    servers: servers.map((url) => ({ url })),
    tags: tagsOf(routes),
  });
}

/**
 * The routing document of the sandbox authorization server (not published: its endpoints answer in
 * RFC 6749 JSON and take form bodies; the document only lets the core router find them).
 * @example createRouter(buildAuthServerDocument(OAUTH_ROUTES), { routes: OAUTH_ROUTES })
 */
export function buildAuthServerDocument(routes: readonly RouteDef[]) {
  return buildRoutingDocument(routes, 'ncs-sandbox authorization server');
}

/**
 * A document that only lets the core router find and validate a mount's routes (not published).
 * @example createRouter(() => buildRoutingDocument(INSPECTOR_ROUTES, 'ncs-sandbox inspector'), { routes: INSPECTOR_ROUTES })
 */
export function buildRoutingDocument(routes: readonly RouteDef[], title: string) {
  const registry = new OpenAPIRegistry();
  registerResponseHeaders(registry);
  registerRoutes(registry, routes, () => []);
  return new OpenApiGeneratorV31(registry.definitions).generateDocument({
    openapi: '3.1.0',
    info: { title, version: '1' },
  });
}
