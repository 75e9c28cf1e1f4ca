// openapi.json describes requests as the interface takes them: authenticated operations by a bearer token in
// the Authorization header ("Authorization: Bearer token obtained through an OAuth flow"), and the bodies the
// interface shows as JSON ("Body (JSON)") with a JSON media type. A description generated for clients ("the
// endpoint reference is generated from the published description") that says otherwise sends them astray.
import { interfaceRoutes } from '../rules/interface-routes.ts';
import { type CheckContext, defineCheck } from '../runner/check.ts';
import { deref, type OpenApiLike, operationLocation, requireOpenApi } from './support/openapi.ts';

type Json = Record<string, unknown>;
const isObject = (v: unknown): v is Json => !!v && typeof v === 'object' && !Array.isArray(v);
const MAX_LISTED = 6;
const listed = (items: string[]) =>
  items.slice(0, MAX_LISTED).join('; ') + (items.length > MAX_LISTED ? `; and ${items.length - MAX_LISTED} more` : '');

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
 * satisfies: every alternative (requirement object) names a scheme that is none of those. An operation the
 * document leaves unsecured is discovery.openapi-security-matches-auth's to judge.
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
    'openapi.json secures the authenticated operations with a scheme a bearer token in the Authorization header meets (http bearer, OAuth 2.0, OpenID Connect)',
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

export const openApiRequestChecks = [securityBearer, requestBodyJson];
