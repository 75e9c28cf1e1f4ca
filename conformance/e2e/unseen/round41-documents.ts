import { randomUUID } from 'node:crypto';
import { buildOpenApiDocument } from '../../../simulator/contract/openapi.ts';
import { openApiYaml } from '../../../simulator/contract/openapi-yaml.ts';
import type { ProxyAnswer, ProxyCall, UnseenViolation } from './proxy.ts';
import { home, P } from './proxy-helpers.ts';

/**
 * Round 41 of the unseen violations, part 3: the OpenAPI document, its files and the self-description —
 * the alternate YAML file without development, the earlier document capping operations at 60, decisions
 * documented with an array capability, earlier self-descriptions without purposes on writes, the current
 * YAML file's createdAt without its format, the alternate document leaving critical optional, and the
 * earlier document without the webhook registration.
 */
type Rec = Record<string, any>;
const CURRENT = '2026-07-01';
const EARLIER = '2026-06-12';
const versionOf = (c: ProxyCall) => c.search.get('version') ?? c.headers['service-version'] ?? CURRENT;
const isDoc = (c: ProxyCall, a: ProxyAnswer) =>
  c.method === 'GET' && c.path === P('/openapi.json') && a.status === 200 && Boolean(a.json.paths);
const isYaml = (c: ProxyCall) => c.method === 'GET' && c.path === P('/openapi.yaml');
const schemas = (doc: Rec) => (doc.components?.schemas ?? {}) as Rec;
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

export const ROUND41_DOCUMENTS: UnseenViolation[] = [
  {
    name: 'alt-yaml-environment-enum-omits-development',
    statement:
      'Environment (enumeration): development, sandbox, pilot, production; the description is also offered as downloadable YAML files (under {alt_base_url} too)',
    request(c) {
      // The alternate region's YAML export runs a production-only config that strips the development value.
      home(c);
      if (c.base !== 'alt' || !isYaml(c)) return undefined;
      return yamlFile(versionOf(c) === EARLIER ? EARLIER : CURRENT, (doc) => {
        const env = schemas(doc).Environment as Rec | undefined;
        if (Array.isArray(env?.enum)) env.enum = (env.enum as string[]).filter((e) => e !== 'development');
      });
    },
  },
  {
    name: 'earlier-openapi-operation-max-length-60',
    statement: 'Limits: operation in idempotency key creation | length 2 to 80 (the 2026-06-12 document too)',
    answer(c, a) {
      // The 2026-06-12 document was generated while the operation column was still 60 wide.
      home(c);
      const op = schemas(a.json).CreateIdempotencyKeyRequest?.properties?.operation as Rec | undefined;
      if (isDoc(c, a) && versionOf(c) === EARLIER && op?.maxLength === 80) op.maxLength = 60;
    },
  },
  {
    name: 'openapi-decision-capability-typed-array',
    statement: 'CapabilityDecision (all fields required): capability | string',
    answer(c, a) {
      // The decision schema was copied from the Connector, where capabilities is a list of strings.
      home(c);
      const props = schemas(a.json).CapabilityDecision?.properties as Rec | undefined;
      if (isDoc(c, a) && props?.capability) props.capability = { type: 'array', items: { type: 'string' } };
    },
  },
  {
    name: 'earlier-self-description-write-routes-lack-purpose',
    statement:
      'GET /api/public/v1: data: routes (array of RouteInfo); RouteInfo: method | path | purpose | string | auth (with Service-Version 2026-06-12 too)',
    answer(c, a) {
      // The 2026-06-12 route table carried purposes only for reads; writes had them in a separate i18n file.
      home(c);
      const routes = a.json.data?.routes;
      if (c.method !== 'GET' || (c.path !== P('') && c.path !== P('/')) || versionOf(c) !== EARLIER) return;
      if (Array.isArray(routes)) for (const r of routes as Rec[]) if (r?.method === 'POST') delete r.purpose;
    },
  },
  {
    name: 'yaml-created-at-format-dropped',
    statement:
      'Connection: createdAt | string, date-time; the description is also offered as downloadable JSON and YAML files per version (the current YAML file)',
    request(c) {
      // The YAML writer's schema filter drops "format" keys it does not know from its own whitelist.
      home(c);
      if (c.base !== 'main' || !isYaml(c) || versionOf(c) !== CURRENT) return undefined;
      return yamlFile(CURRENT, (doc) => {
        const at = schemas(doc).Connection?.properties?.createdAt as Rec | undefined;
        if (at) delete at.format;
      });
    },
  },
  {
    name: 'alt-openapi-decision-critical-not-required',
    statement:
      'CapabilityDecision (all fields required): critical | boolean (the OpenAPI document under {alt_base_url} too)',
    answer(c, a) {
      // The alternate region's document comes from a schema where critical was still an optional extension.
      home(c);
      const decision = schemas(a.json).CapabilityDecision as Rec | undefined;
      if (c.base === 'alt' && isDoc(c, a) && Array.isArray(decision?.required))
        decision.required = (decision.required as string[]).filter((r) => r !== 'critical');
    },
  },
  {
    name: 'earlier-openapi-omits-webhook-registration',
    statement:
      'Endpoints: POST /api/public/v1/webhooks | yes + key | create a webhook receiver; the endpoint reference is generated from the published description (the 2026-06-12 document too)',
    answer(c, a) {
      // The 2026-06-12 document is filtered by a "stable routes" list that was written before webhooks existed.
      home(c);
      const item = (a.json.paths as Rec | undefined)?.[P('/webhooks')] as Rec | undefined;
      if (isDoc(c, a) && versionOf(c) === EARLIER && item?.post) delete item.post;
    },
  },
];
