import { randomUUID } from 'node:crypto';
import { buildOpenApiDocument } from '../../../simulator/contract/openapi.ts';
import { openApiYaml } from '../../../simulator/contract/openapi-yaml.ts';
import type { ProxyAnswer, ProxyCall, UnseenViolation } from './proxy.ts';
import { home, P } from './proxy-helpers.ts';
import { CURRENT, EARLIER, type Rec } from './round44-common.ts';

/** Round 59, part 3: the self-description and the OpenAPI downloads against what the service does. */
const versionOf = (c: ProxyCall) => c.search.get('version') ?? c.headers['service-version'] ?? CURRENT;
const isSelf = (c: ProxyCall) => c.method === 'GET' && (c.path === P('') || c.path === P('/'));
const isDoc = (c: ProxyCall, a: ProxyAnswer) =>
  c.method === 'GET' && c.path === P('/openapi.json') && a.status === 200 && Boolean(a.json.paths);
const isCurrentYaml = (c: ProxyCall) => c.method === 'GET' && c.path === P('/openapi.yaml') && versionOf(c) !== EARLIER;
const routesOf = (c: ProxyCall, a: ProxyAnswer) =>
  isSelf(c) && a.status === 200 && Array.isArray(a.json.data?.routes) ? (a.json.data.routes as Rec[]) : undefined;
const setAuth = (routes: Rec[], method: string, tail: string, auth: boolean) => {
  for (const r of routes) if (r.method === method && r.path === P(tail)) r.auth = auth;
};
/** Answers the current YAML file built from the document after `edit` changed it. */
const yamlFile = (edit: (doc: Rec) => void): ProxyAnswer => {
  const doc = structuredClone(buildOpenApiDocument({ version: CURRENT }) as Rec);
  edit(doc);
  return {
    status: 200,
    headers: {
      'content-type': 'application/yaml; charset=utf-8',
      'content-disposition': `inline; filename="ncs-openapi-${CURRENT}.yaml"`,
      'x-content-type-options': 'nosniff',
      'x-request-id': `req_${randomUUID().replaceAll('-', '').slice(0, 16)}`,
    },
    json: {},
    raw: openApiYaml(doc),
  };
};

export const ROUND59_DOCUMENTS: UnseenViolation[] = [
  {
    name: 'self-description-catalog-read-marked-public',
    statement:
      'Endpoints: GET /api/public/v1/capabilities | yes | capability catalog; RouteInfo: auth | boolean (the catalog read answers 401 without a token)',
    answer(c, a) {
      // The route table derives auth from "has a body schema", so the GET beside the checked POST comes out public.
      home(c);
      const routes = routesOf(c, a);
      if (routes) setAuth(routes, 'GET', '/capabilities', false);
    },
  },
  {
    name: 'self-description-connections-list-marked-public',
    statement:
      'Endpoints: GET /api/public/v1/connections | yes | connections of the tenant; RouteInfo: auth | boolean (a route listed public that answers 401)',
    answer(c, a) {
      // Auth flags were copied from the rate-limit exemption list, where the tenant's list read is exempt.
      home(c);
      const routes = routesOf(c, a);
      if (routes) setAuth(routes, 'GET', '/connections', false);
    },
  },
  {
    name: 'self-description-omits-yaml-download-route',
    statement:
      'GET /api/public/v1/openapi.json: The description is also offered as downloadable JSON and YAML files per version; GET /api/public/v1: routes (array of RouteInfo) (the YAML download is served)',
    answer(c, a) {
      // The route list is built from the JSON router; the YAML download is a static-file mount it never sees.
      home(c);
      const routes = routesOf(c, a);
      if (!routes) return;
      a.json.data.routes = routes.filter((r) => !String(r.path).endsWith('.yaml'));
    },
  },
  {
    name: 'openapi-check-answer-environment-enum-lacks-pilot',
    statement:
      'POST /api/public/v1/capabilities: data: decision (CapabilityDecision), environment (Environment); Environment (enumeration): development, sandbox, pilot, production (the documented answer)',
    answer(c, a) {
      // The answer schema was hand-written for the launch, before pilot existed; the request side is generated.
      home(c);
      if (!isDoc(c, a)) return;
      const data = (a.json.paths as Rec | undefined)?.[P('/capabilities')]?.post?.responses?.['200']?.content?.[
        'application/json'
      ]?.schema?.properties?.data;
      if (data?.properties?.environment)
        data.properties.environment = { type: 'string', enum: ['development', 'sandbox', 'production'] };
    },
  },
  {
    name: 'current-yaml-connectors-lack-category-filter',
    statement:
      'GET /api/public/v1/connectors: category | string | no; The description is also offered as downloadable JSON and YAML files per version (the current YAML file)',
    request(c) {
      // The YAML export is produced by an older converter that keeps only the first two query parameters of a path.
      home(c);
      if (!isCurrentYaml(c)) return undefined;
      return yamlFile((doc) => {
        const get = doc.paths?.[P('/connectors')]?.get;
        if (Array.isArray(get?.parameters))
          get.parameters = (get.parameters as Rec[]).filter((p) => p.name !== 'category');
      });
    },
  },
  {
    name: 'current-yaml-check-connector-id-max-length-100',
    statement:
      'POST /api/public/v1/capabilities: connectorId | string | yes | length 2 to 120 (the current YAML download)',
    request(c) {
      // The YAML file is rendered from a cached copy of the schema made when the limit was still 100.
      home(c);
      if (!isCurrentYaml(c)) return undefined;
      return yamlFile((doc) => {
        const s = doc.components?.schemas?.CapabilityCheckRequest?.properties?.connectorId;
        if (s) s.maxLength = 100;
      });
    },
  },
  {
    name: 'current-yaml-omits-webhook-registration',
    statement:
      'Endpoints: POST /api/public/v1/webhooks | yes + key | create a webhook receiver; The description is also offered as downloadable JSON and YAML files per version (the current YAML file)',
    request(c) {
      // The YAML build filters out paths tagged "beta" and the webhooks path still carries that tag in its source.
      home(c);
      if (!isCurrentYaml(c)) return undefined;
      return yamlFile((doc) => {
        const item = doc.paths?.[P('/webhooks')];
        if (item) delete item.post;
      });
    },
  },
];
