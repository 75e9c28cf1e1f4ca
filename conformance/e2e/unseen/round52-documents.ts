import type { ProxyAnswer, ProxyCall, UnseenViolation } from './proxy.ts';
import { home, isCreate, P, refuse } from './proxy-helpers.ts';
import { earlier, type Rec } from './round44-common.ts';

/** Round 52, part 3: the documents per version and per header, the self-description after writes, error codes per cause. */
const isDoc = (c: ProxyCall, a: ProxyAnswer) =>
  c.method === 'GET' && c.path === P('/openapi.json') && a.status === 200 && Boolean(a.json.paths);
const isYaml = (c: ProxyCall) => c.method === 'GET' && c.path === P('/openapi.yaml');
const isSelf = (c: ProxyCall) => c.method === 'GET' && c.path === P('');
/** Every query parameter named cursor in a document gets minimum 1. */
const cursorFromOne = (node: unknown): void => {
  if (!node || typeof node !== 'object') return;
  const n = node as Rec;
  if (n.name === 'cursor' && n.in === 'query' && n.schema && typeof n.schema === 'object') n.schema.minimum = 1;
  for (const v of Object.values(n)) cursorFromOne(v);
};
const KEYED = new Set([P('/connections'), P('/webhooks')]);

export const ROUND52_DOCUMENTS: UnseenViolation[] = [
  {
    name: 'earlier-openapi-cursor-minimum-one',
    statement: 'Limits: cursor | integer, minimum 0 (the JSON document of version 2026-06-12)',
    answer(c, a) {
      // The 2026-06-12 document is regenerated from a schema snapshot in which cursor was still "positive()".
      home(c);
      if (isDoc(c, a) && earlier(c)) cursorFromOne(a.json.paths);
    },
  },
  {
    name: 'openapi-with-tenant-header-omits-webhook-paths',
    statement:
      'GET /api/public/v1/openapi.json: Returns the machine-readable description of this interface; Endpoints: POST /api/public/v1/webhooks, GET /api/public/v1/audit-log (the document fetched with a tenant header)',
    answer(c, a) {
      // With a tenant header the document is filtered by that tenant's feature flags, which lack webhooks and audit.
      home(c);
      if (!isDoc(c, a) || !c.headers['x-service-tenant']) return;
      for (const path of Object.keys(a.json.paths as Rec))
        if (path.startsWith(P('/webhooks')) || path.startsWith(P('/audit-log'))) delete (a.json.paths as Rec)[path];
    },
  },
  {
    name: 'earlier-yaml-openapi-field-unquoted-number',
    statement:
      'GET /api/public/v1/openapi.json: The description is also offered as downloadable JSON and YAML files per version (OpenAPI 3.1) (the 2026-06-12 YAML file)',
    stream(c, lines) {
      // The archived YAML exporter writes the short version unquoted (openapi: 3.1), which a YAML reader takes for a number.
      home(c);
      if (!isYaml(c) || !earlier(c)) return lines;
      return lines.replace(/^openapi: ['"]?3\.1\.\d+['"]?$/m, 'openapi: 3.1');
    },
  },
  {
    name: 'self-description-right-after-write-lacks-creation-route',
    statement:
      'GET /api/public/v1: data: routes (array of RouteInfo); Endpoints: POST /api/public/v1/connections (the self-description read within two seconds of a creation)',
    answer(c, a) {
      // A creation invalidates the route registry cache, and the lazy rebuild lists the write routes only once warmed.
      home(c);
      if (isCreate(c) && a.status === 200) c.memory.set('r52-wrote', Date.now());
      const wrote = c.memory.get('r52-wrote') as number | undefined;
      if (!isSelf(c) || !wrote || Date.now() - wrote > 2000 || !Array.isArray(a.json.data?.routes)) return;
      a.json.data.routes = (a.json.data.routes as Rec[]).filter(
        (r) => !(r?.method === 'POST' && r?.path === P('/connections')),
      );
    },
  },
  {
    name: 'earlier-self-description-keyed-routes-auth-as-text',
    statement: 'RouteInfo: auth | boolean (the routes that need a key, in the self-description asked for 2026-06-12)',
    answer(c, a) {
      // The 2026-06-12 route list is built from the old endpoint table, whose Auth column reads "yes + key".
      home(c);
      if (!isSelf(c) || !earlier(c) || !Array.isArray(a.json.data?.routes)) return;
      for (const r of a.json.data.routes as Rec[]) if (r?.method === 'POST' && KEYED.has(r.path)) r.auth = 'yes + key';
    },
  },
  {
    name: 'long-unknown-token-answered-invalid-request',
    statement:
      'Errors: unauthorized | 401 | call was not signed in | token missing, token expired (an unknown bearer token longer than 100 characters)',
    answer(c, a) {
      // The header-size guard runs before authentication and reports an over-long credential as a malformed request.
      home(c);
      const auth = c.headers.authorization ?? '';
      if (auth.length > 107 && a.status === 401)
        refuse(
          a,
          400,
          'invalid_request',
          'The request is incomplete or unsuitable.',
          'Authorization header is too long.',
        );
    },
  },
  {
    name: 'unknown-environment-creation-coded-invalid-enum',
    statement:
      'Failure envelope: error.code | string | yes | one of the codes in the Errors part (a creation naming an environment outside the list)',
    answer(c, a) {
      // The validator's own issue code (invalid_enum_value) leaks through when the failing field is an enumeration.
      home(c);
      const env = (c.body as Rec | undefined)?.environment;
      const known = ['development', 'sandbox', 'pilot', 'production'];
      if (isCreate(c) && a.status === 400 && typeof env === 'string' && !known.includes(env) && a.json.error)
        a.json.error.code = 'invalid_enum_value';
    },
  },
];
