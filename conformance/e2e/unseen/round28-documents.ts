import type { ProxyAnswer, ProxyCall, UnseenViolation } from './proxy.ts';
import { P } from './proxy-helpers.ts';

/**
 * Round 28 of the unseen violations, part 3: the OpenAPI document — a Swagger 2 body parameter, a
 * security requirement naming an undeclared scheme, responses without description, a license with
 * both identifier and url, the tenant header typed integer, optional path parameters, top-level
 * webhooks as an array, a meta.version pattern that excludes dates, and a path key without its slash.
 */
type Rec = Record<string, any>;
const METHODS = ['get', 'put', 'post', 'delete', 'patch', 'head', 'options', 'trace'];
const isDoc = (c: ProxyCall, a: ProxyAnswer) =>
  c.method === 'GET' && c.path === P('/openapi.json') && a.status === 200 && Boolean(a.json.paths);
/** Every operation of the document. */
const operations = (doc: Rec): Rec[] =>
  Object.values((doc.paths ?? {}) as Rec).flatMap((item: Rec) =>
    METHODS.map((m) => item?.[m]).filter((op): op is Rec => Boolean(op)),
  );

export const ROUND28_DOCUMENTS: UnseenViolation[] = [
  {
    name: 'openapi-check-body-as-swagger2-parameter',
    statement:
      'GET /api/public/v1/openapi.json: Returns the machine-readable description of this interface as a JSON object (OpenAPI 3.1) — POST /capabilities Body (JSON)',
    answer(c, a) {
      // A hand-merged fragment from the Swagger 2 era: the check body is a parameter "in: body",
      // which OpenAPI 3.1 does not have, and the requestBody is gone.
      if (!isDoc(c, a)) return;
      const op = (a.json.paths as Rec)[P('/capabilities')]?.post as Rec | undefined;
      const schema = op?.requestBody?.content?.['application/json']?.schema;
      if (!op || !schema) return;
      delete op.requestBody;
      op.parameters = [...(op.parameters ?? []), { name: 'body', in: 'body', required: true, schema }];
    },
  },
  {
    name: 'openapi-security-names-undeclared-scheme',
    statement:
      'GET /api/public/v1/openapi.json: OpenAPI 3.1 document (Authentication: Authorization — Bearer token obtained through an OAuth flow)',
    answer(c, a) {
      // The scheme was renamed in components ("oauth2") but the operations still require "OAuth2".
      if (!isDoc(c, a)) return;
      for (const op of operations(a.json))
        if (Array.isArray(op.security))
          op.security = op.security.map((req: Rec) =>
            Object.fromEntries(Object.entries(req).map(([k, v]) => [k === 'oauth2' ? 'OAuth2' : k, v])),
          );
    },
  },
  {
    name: 'openapi-list-responses-without-description',
    statement: 'GET /api/public/v1/openapi.json: OpenAPI 3.1 document (a Response Object requires description)',
    answer(c, a) {
      // The generator's description comes from a JSDoc tag the list handlers do not carry.
      if (!isDoc(c, a)) return;
      for (const path of [P('/providers'), P('/connectors')])
        for (const r of Object.values(((a.json.paths as Rec)[path]?.get?.responses ?? {}) as Rec))
          if (r && typeof r === 'object' && !('$ref' in r)) delete r.description;
    },
  },
  {
    name: 'openapi-license-identifier-and-url',
    statement:
      'GET /api/public/v1/openapi.json: OpenAPI 3.1 document (License: identifier and url are mutually exclusive)',
    answer(c, a) {
      // The license block is filled from package.json (identifier) and from a template (url).
      if (!isDoc(c, a)) return;
      const info = a.json.info as Rec | undefined;
      if (info) info.license = { name: 'MIT', identifier: 'MIT', url: 'https://opensource.org/licenses/MIT' };
    },
  },
  {
    name: 'openapi-tenant-header-typed-integer',
    statement:
      'Authentication: x-service-tenant — identifier of the tenant for which the call applies (a string such as the sample tenants; documented in the OpenAPI 3.1 document)',
    answer(c, a) {
      // The tenant parameter's schema was copied from the numeric tenant id of the billing system.
      if (!isDoc(c, a)) return;
      for (const op of operations(a.json))
        for (const p of (op.parameters ?? []) as Rec[])
          if (String(p?.name).toLowerCase() === 'x-service-tenant' && p.schema)
            p.schema = { type: 'integer', minimum: 1 };
    },
  },
  {
    name: 'openapi-path-parameters-optional',
    statement: 'GET /api/public/v1/openapi.json: OpenAPI 3.1 document (a path parameter must be required: true)',
    answer(c, a) {
      // Path parameters are generated with the same "required when not optional in zod" rule as
      // query parameters, and the id schemas are declared optional for reuse in bodies.
      if (!isDoc(c, a)) return;
      const items = Object.values((a.json.paths ?? {}) as Rec) as Rec[];
      const params = [
        ...items.flatMap((i) => (i.parameters ?? []) as Rec[]),
        ...operations(a.json).flatMap((o) => (o.parameters ?? []) as Rec[]),
      ];
      for (const p of params) if (p?.in === 'path') p.required = false;
    },
  },
  {
    name: 'openapi-top-level-webhooks-as-array',
    statement: 'GET /api/public/v1/openapi.json: OpenAPI 3.1 document (webhooks: a map of Path Item Objects)',
    answer(c, a) {
      // The webhook section is built as a list of { name, ...pathItem } for the portal and emitted
      // unchanged into the document.
      if (!isDoc(c, a) || !a.json.webhooks || typeof a.json.webhooks !== 'object') return;
      a.json.webhooks = Object.entries(a.json.webhooks as Rec).map(([name, item]) => ({ name, ...(item as Rec) }));
    },
  },
  {
    name: 'openapi-meta-version-pattern-excludes-dates',
    statement:
      'Versioning: The current version identifier is 2026-07-01 (a date). Responses report it in meta.version. (as described by the OpenAPI document)',
    answer(c, a) {
      // A shared Meta schema from another product carries its "v<major>" version pattern.
      if (!isDoc(c, a)) return;
      const meta = (a.json.components as Rec | undefined)?.schemas?.Meta as Rec | undefined;
      if (meta?.properties?.version) meta.properties.version.pattern = '^v[0-9]+(\\.[0-9]+)*$';
    },
  },
  {
    name: 'openapi-connectors-path-key-without-slash',
    statement:
      'All paths start with /api/public/v1. (OpenAPI 3.1: path keys begin with a slash) — GET /api/public/v1/connectors',
    answer(c, a) {
      // The path of one route is joined without its leading slash by a path.join on a relative base.
      if (!isDoc(c, a)) return;
      const paths = a.json.paths as Rec;
      const key = P('/connectors');
      if (!paths[key]) return;
      a.json.paths = Object.fromEntries(Object.entries(paths).map(([k, v]) => [k === key ? k.slice(1) : k, v]));
    },
  },
];
