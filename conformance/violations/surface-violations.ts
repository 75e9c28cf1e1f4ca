import { ROUTES } from '../../simulator/contract/route-table.ts';
import { BASE_PATH } from '../../simulator/contract/versions.ts';
import { defaultAccess } from './default-access.ts';
import { editJson, failureOf, withHeader } from './json-edit.ts';
import type { Violation } from './types.ts';

const PROVIDERS = `${BASE_PATH}/providers`;
const OPENAPI = `${BASE_PATH}/openapi.json`;
const PUBLIC_PATHS = new Set([BASE_PATH, OPENAPI, `${BASE_PATH}/openapi.yaml`, `${BASE_PATH}/stream`]);

/** A route template as a regular expression: each {param} matches one path segment. */
const templateOf = (path: string) =>
  new RegExp(
    `^${path
      .split(/\{[^}]+\}/)
      .map((part) => part.replace(/[.*+?^$()|[\]\\]/g, '\\$&'))
      .join('[^/]+')}$`,
  );

/** Violations of authentication, self-description, the OpenAPI document, CORS and the second address. */
export const SURFACE_VIOLATIONS: Violation[] = [
  {
    name: 'self-description-key-max-64',
    description:
      "the self-description's idempotency object states keys of 16 to 64 characters (an old gateway's limit; the service takes 8 to 128)",
    section: 'Limits',
    catches: ['discovery.stated-key-rule', 'requests.other-forms-as-route'],
    async handle(req, next) {
      const res = await next(req);
      if (req.method !== 'GET' || req.path !== BASE_PATH || res.status !== 200) return res;
      return editJson(res, (b) => {
        const data = b.data as { idempotency?: Record<string, unknown> } | undefined;
        if (data) data.idempotency = { ...data.idempotency, minLength: 16, maxLength: 64 };
      });
    },
  },
  {
    name: 'foreign-creation-stored-at-home',
    description:
      "a creation for a tenant the access is not released for is answered 403, but stored under the access's own tenant first",
    section: 'Errors',
    catches: ['generated.refused-left-no-trace'],
    async handle(req, next, core) {
      const res = await next(req);
      if (req.method !== 'POST' || req.path !== `${BASE_PATH}/connections` || res.status !== 403) return res;
      const access = await defaultAccess(core);
      if (req.headers['x-service-tenant'] !== access.tenant)
        await next(withHeader(req, 'x-service-tenant', access.tenant));
      return res;
    },
  },
  {
    name: 'query-token-accepted',
    description:
      'a bearer token sent as ?access_token= (RFC 6750 §2.3) without an Authorization header authenticates the call',
    section: 'Required on every authenticated call',
    catches: ['auth.token-in-header-only'],
    handle(req, next) {
      const { access_token: token, ...query } = req.query;
      if (typeof token !== 'string' || req.headers.authorization !== undefined) return next(req);
      return next(withHeader({ ...req, query }, 'authorization', `Bearer ${token}`));
    },
  },
  {
    name: 'unauthenticated-access',
    description: 'GET /providers answers without a token (as if the default client had called)',
    section: 'Required on every authenticated call',
    catches: ['auth.missing-token', 'discovery.auth-flags-observed', 'auth.no-token-with-tenant'],
    async handle(req, next, core) {
      if (req.path !== PROVIDERS || req.headers.authorization !== undefined) return next(req);
      const access = await defaultAccess(core);
      const withToken = withHeader(req, 'authorization', `Bearer ${access.token}`);
      return next(
        withToken.headers['x-service-tenant'] ? withToken : withHeader(withToken, 'x-service-tenant', access.tenant),
      );
    },
  },
  {
    name: 'invalid-token-accepted',
    description: 'an unknown bearer token is accepted (as the default client)',
    section: 'Required on every authenticated call',
    // capabilities.key-neutral sends a used key with an unknown token.
    catches: ['auth.invalid-token', 'capabilities.key-neutral'],
    async handle(req, next, core) {
      const token = /^bearer\s+(\S+)$/i.exec(req.headers.authorization ?? '')?.[1];
      if (!token || (await core.state.tokens.lookup(token))) return next(req);
      return next(withHeader(req, 'authorization', `Bearer ${(await defaultAccess(core)).token}`));
    },
  },
  {
    name: 'missing-tenant-accepted',
    description: "an authenticated call without x-service-tenant is served for the token's first tenant",
    section: 'Required on every authenticated call',
    catches: ['auth.missing-tenant', 'auth.missing-tenant-invalid-request'],
    async handle(req, next, core) {
      const token = /^bearer\s+(\S+)$/i.exec(req.headers.authorization ?? '')?.[1];
      const tenant = token ? (await core.state.tokens.lookup(token))?.tenants[0] : undefined;
      return next(tenant && !req.headers['x-service-tenant'] ? withHeader(req, 'x-service-tenant', tenant) : req);
    },
  },
  {
    name: 'public-endpoint-requires-auth',
    description: 'GET /openapi.json demands a bearer token although the interface makes it public',
    section: 'Authentication',
    catches: [
      'discovery.public-endpoints',
      'discovery.auth-flags-observed',
      'discovery.openapi-valid',
      'requests.other-forms-as-route',
    ],
    handle(req, next) {
      return req.path === OPENAPI && req.headers.authorization === undefined
        ? Promise.resolve(failureOf('unauthorized', 'The Authorization header is missing.'))
        : next(req);
    },
  },
  {
    name: 'self-description-route-missing',
    description: 'the self-description leaves GET /capabilities out of data.routes',
    section: 'GET /api/public/v1',
    catches: ['discovery.interface-routes-listed', 'requests.other-forms-as-route'],
    async handle(req, next) {
      const res = await next(req);
      if (req.path !== BASE_PATH || res.status !== 200) return res;
      return editJson(res, (b) => {
        const routes = b.data?.routes as { method: string; path: string }[];
        if (!b.data) return;
        b.data.routes = routes.filter((r) => !(r.method === 'GET' && r.path === `${BASE_PATH}/capabilities`));
      });
    },
  },
  {
    name: 'self-description-methods-lowercase',
    description: "the self-description names its routes' methods in lower case (get, post: methods are case-sensitive)",
    section: 'GET /api/public/v1',
    catches: ['discovery.interface-routes-listed', 'requests.other-forms-as-route'],
    async handle(req, next) {
      const res = await next(req);
      if (req.path !== BASE_PATH || res.status !== 200) return res;
      return editJson(res, (b) => {
        if (!b.data) return;
        const routes = b.data.routes as { method: string }[];
        b.data.routes = routes.map((r) => ({ ...r, method: r.method.toLowerCase() }));
      });
    },
  },
  {
    name: 'wrong-auth-flag',
    description: 'the self-description marks GET /providers as public (auth: false)',
    section: 'GET /api/public/v1',
    catches: [
      'discovery.interface-routes-listed',
      'discovery.auth-flags-observed',
      'discovery.openapi-security-matches-auth',
      'requests.other-forms-as-route',
    ],
    async handle(req, next) {
      const res = await next(req);
      if (req.path !== BASE_PATH || res.status !== 200) return res;
      return editJson(res, (b) => {
        for (const r of (b.data?.routes ?? []) as { method: string; path: string; auth: boolean }[])
          if (r.method === 'GET' && r.path === PROVIDERS) r.auth = false;
      });
    },
  },
  {
    name: 'openapi-route-missing',
    description: 'openapi.json leaves out GET /info, a route the self-description lists',
    section: 'GET /api/public/v1',
    catches: ['discovery.routes-match-openapi'],
    async handle(req, next) {
      const res = await next(req);
      if (req.path !== OPENAPI || res.status !== 200 || !res.body) return res;
      const doc = JSON.parse(res.body) as { paths: Record<string, unknown> };
      delete doc.paths[`${BASE_PATH}/info`];
      return { ...res, body: JSON.stringify(doc) };
    },
  },
  {
    name: 'openapi-invalid',
    description: 'openapi.json lacks its required info object',
    section: 'GET /api/public/v1/openapi.json',
    catches: ['discovery.openapi-valid'],
    async handle(req, next) {
      const res = await next(req);
      if (req.path !== OPENAPI || res.status !== 200 || !res.body) return res;
      const doc = JSON.parse(res.body) as Record<string, unknown>;
      delete doc.info;
      return { ...res, body: JSON.stringify(doc) };
    },
  },
  {
    name: 'unknown-path-plain-text',
    description: 'paths outside the interface answer 404 with a plain-text body instead of the failure envelope',
    section: 'Errors',
    catches: ['errors.unknown-route'],
    async handle(req, next) {
      const res = await next(req);
      if (res.status !== 404 || ROUTES.some((r) => templateOf(r.path).test(req.path))) return res;
      return { status: 404, headers: { 'content-type': 'text/plain; charset=utf-8' }, body: 'Not Found' };
    },
  },
  {
    name: 'alt-sample-body-taken',
    description:
      "at the alternate base URL, a creation with the sample call's restaurantId in place of scopeLabel is taken (restaurantId mapped to scopeLabel by that gateway) instead of 400 invalid_request",
    section: 'POST /api/public/v1/connections',
    catches: ['connections.required-everywhere'],
    async handle(req, next, _core, base) {
      if (base !== 'alt' || req.method !== 'POST' || req.path !== `${BASE_PATH}/connections` || !req.body)
        return next(req);
      let body: Record<string, unknown>;
      try {
        body = JSON.parse(new TextDecoder().decode(req.body));
      } catch {
        return next(req);
      }
      if (typeof body?.restaurantId !== 'string' || body.scopeLabel !== undefined) return next(req);
      const { restaurantId, ...rest } = body;
      return next({ ...req, body: new TextEncoder().encode(JSON.stringify({ ...rest, scopeLabel: restaurantId })) });
    },
  },
  {
    name: 'info-always-internal',
    description:
      'GET /api/public/v1/info, documented and self-described, answers 500 internal to every call (a dependency it reads is gone)',
    section: 'Errors',
    catches: ['discovery.auth-flags-observed', 'responses.documented-reads-answer'],
    async handle(req, next) {
      if (req.method !== 'GET' || req.path !== `${BASE_PATH}/info`) return next(req);
      return failureOf('internal', 'The service information is unavailable.');
    },
  },
  {
    name: 'cors-on-authenticated',
    description: 'authenticated endpoints answer with Access-Control-Allow-Origin: *',
    section: 'What the service does',
    catches: ['cors.none-on-authenticated'],
    async handle(req, next) {
      const res = await next(req);
      return PUBLIC_PATHS.has(req.path)
        ? res
        : { ...res, headers: { ...res.headers, 'access-control-allow-origin': '*' } };
    },
  },
  {
    name: 'alt-base-differs',
    description: 'the alternate base URL lists only the first provider',
    section: 'Network Connections Service Interface',
    where: 'alt',
    catches: ['base-urls.alt-identical', 'requests.other-forms-as-route', 'places.scenario-alike'],
    async handle(req, next) {
      const res = await next(req);
      if (req.path !== PROVIDERS || res.status !== 200) return res;
      return editJson(res, (b) => {
        if (!b.data) return;
        b.data.providers = (b.data.providers as unknown[]).slice(0, 1);
        b.data.count = (b.data.providers as unknown[]).length;
      });
    },
  },
];
