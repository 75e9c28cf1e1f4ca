import { randomUUID } from 'node:crypto';
import { buildOpenApiDocument } from '../../../simulator/contract/openapi.ts';
import { openApiYaml } from '../../../simulator/contract/openapi-yaml.ts';
import type { ProxyAnswer, ProxyCall, UnseenViolation } from './proxy.ts';
import { home, P } from './proxy-helpers.ts';

/**
 * Round 43 of the unseen violations, part 3: the OpenAPI document, its files and the self-description —
 * the earlier YAML key pattern without a colon, the earlier alternate document's 100-character labels,
 * the earlier document's 20-capability creations, the current YAML cursor from 1, the alternate YAML
 * environments without pilot, and earlier self-descriptions with a signed stream or an unsigned check.
 */
type Rec = Record<string, any>;
const CURRENT = '2026-07-01';
const EARLIER = '2026-06-12';
const PATTERN = '^[A-Za-z0-9._:-]{8,128}$';
const versionOf = (c: ProxyCall) => c.search.get('version') ?? c.headers['service-version'] ?? CURRENT;
const isDoc = (c: ProxyCall, a: ProxyAnswer) =>
  c.method === 'GET' && c.path === P('/openapi.json') && a.status === 200 && Boolean(a.json.paths);
const isYaml = (c: ProxyCall) => c.method === 'GET' && c.path === P('/openapi.yaml');
const isSelf = (c: ProxyCall) => c.method === 'GET' && (c.path === P('') || c.path === P('/'));
/** Calls `f` on every object inside a document. */
const walk = (x: unknown, f: (o: Rec) => void): void => {
  if (Array.isArray(x)) for (const y of x) walk(y, f);
  else if (x && typeof x === 'object') {
    f(x as Rec);
    for (const y of Object.values(x)) walk(y, f);
  }
};
/** Answers a YAML file built from the version's document after `edit` changed it. */
const yamlFile = (version: typeof CURRENT | typeof EARLIER, edit: (doc: Rec) => void): ProxyAnswer => {
  const doc = structuredClone(buildOpenApiDocument({ version }) as Rec);
  edit(doc);
  return {
    status: 200,
    headers: {
      'content-type': 'application/yaml; charset=utf-8',
      'content-disposition': `inline; filename="ncs-openapi-${version}.yaml"`,
      'x-content-type-options': 'nosniff',
      'x-request-id': `req_${randomUUID().replaceAll('-', '').slice(0, 16)}`,
    },
    json: {},
    raw: openApiYaml(doc),
  };
};
/** Sets `auth` of the earlier self-description's route `method path`. */
const routeAuth = (c: ProxyCall, a: ProxyAnswer, method: string, path: string, auth: boolean) => {
  const routes = (a.json.data as Rec | undefined)?.routes;
  if (!isSelf(c) || versionOf(c) !== EARLIER || !Array.isArray(routes)) return;
  for (const r of routes as Rec[]) if (r?.method === method && r?.path === P(path)) r.auth = auth;
};

export const ROUND43_DOCUMENTS: UnseenViolation[] = [
  {
    name: 'earlier-yaml-key-pattern-without-colon',
    statement: 'Limits: Idempotency-Key | pattern ^[A-Za-z0-9._:-]{8,128}$ (the 2026-06-12 YAML file too)',
    request(c) {
      // The 2026-06-12 YAML was exported before colons were allowed in keys and never re-exported.
      home(c);
      if (c.base !== 'main' || !isYaml(c) || versionOf(c) !== EARLIER) return undefined;
      return yamlFile(EARLIER, (doc) =>
        walk(doc, (o) => {
          if (o.pattern === PATTERN) o.pattern = '^[A-Za-z0-9._-]{8,128}$';
        }),
      );
    },
  },
  {
    name: 'alt-earlier-openapi-scope-label-max-100',
    statement:
      'POST /api/public/v1/connections: scopeLabel | length 2 to 120 (the 2026-06-12 document under {alt_base_url})',
    answer(c, a) {
      // The alternate region serves the earlier document from a cache built before the limit was raised.
      home(c);
      if (c.base !== 'alt' || !isDoc(c, a) || versionOf(c) !== EARLIER) return;
      walk(a.json, (o) => {
        const label = (o.properties as Rec | undefined)?.scopeLabel as Rec | undefined;
        if (label?.maxLength === 120) label.maxLength = 100;
      });
    },
  },
  {
    name: 'earlier-openapi-creation-capabilities-max-20',
    statement:
      'POST /api/public/v1/connections: capabilities | array of string | 1 to 24 items (the 2026-06-12 document too)',
    answer(c, a) {
      // The 2026-06-12 document was generated from a schema still carrying the old limit of twenty.
      home(c);
      if (!isDoc(c, a) || versionOf(c) !== EARLIER) return;
      walk(a.json, (o) => {
        const caps = (o.properties as Rec | undefined)?.capabilities as Rec | undefined;
        if (caps?.maxItems === 24) caps.maxItems = 20;
      });
    },
  },
  {
    name: 'current-yaml-cursor-minimum-one',
    statement: 'GET /api/public/v1/stream: cursor | query | integer, minimum 0 (the current YAML file)',
    request(c) {
      // The YAML writer maps "minimum 0" through a falsy check and falls back to the positive-integer type.
      home(c);
      if (c.base !== 'main' || !isYaml(c) || versionOf(c) !== CURRENT) return undefined;
      return yamlFile(CURRENT, (doc) => {
        const params = doc.paths?.[P('/stream')]?.get?.parameters;
        if (Array.isArray(params))
          for (const p of params as Rec[]) if (p?.name === 'cursor' && p.schema) p.schema.minimum = 1;
      });
    },
  },
  {
    name: 'alt-yaml-environment-enum-lacks-pilot',
    statement:
      'Environment (enumeration): development, sandbox, pilot, production (the YAML file under {alt_base_url})',
    request(c) {
      // The alternate region's YAML export filters enum values through its own region's feature flags.
      home(c);
      if (c.base !== 'alt' || !isYaml(c)) return undefined;
      return yamlFile(versionOf(c) === EARLIER ? EARLIER : CURRENT, (doc) =>
        walk(doc, (o) => {
          if (Array.isArray(o.enum) && o.enum.includes('pilot') && o.enum.includes('sandbox'))
            o.enum = (o.enum as string[]).filter((v) => v !== 'pilot');
        }),
      );
    },
  },
  {
    name: 'earlier-self-description-stream-auth-true',
    statement:
      'Endpoints: GET /api/public/v1/stream | public; RouteInfo: auth | boolean (the 2026-06-12 self-description too)',
    answer(c, a) {
      // The 2026-06-12 route table marks every route that passes the tenant middleware as authenticated.
      home(c);
      routeAuth(c, a, 'GET', '/stream', true);
    },
  },
  {
    name: 'alt-earlier-self-description-check-auth-false',
    statement:
      'Endpoints: POST /api/public/v1/capabilities | yes; RouteInfo: auth | boolean (the 2026-06-12 self-description under {alt_base_url})',
    answer(c, a) {
      // The alternate region's earlier route table merges GET and POST of one path and keeps the public flag.
      home(c);
      if (c.base === 'alt') routeAuth(c, a, 'POST', '/capabilities', false);
    },
  },
];
