import { randomUUID } from 'node:crypto';
import { buildOpenApiDocument } from '../../../simulator/contract/openapi.ts';
import { openApiYaml } from '../../../simulator/contract/openapi-yaml.ts';
import type { ProxyAnswer, ProxyCall, UnseenViolation } from './proxy.ts';
import { home, P } from './proxy-helpers.ts';

/**
 * Round 42 of the unseen violations, part 3: the OpenAPI document, its files and the self-description —
 * the alternate YAML file without 428 on creation, the earlier YAML file with a staging environment,
 * the earlier document defaulting checks to production, the current YAML file listing connection
 * capabilities as strings, the alternate document typing cursor as text, the earlier document's
 * meta.at as a date, and the earlier self-description without the key route.
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

export const ROUND42_DOCUMENTS: UnseenViolation[] = [
  {
    name: 'alt-yaml-creation-omits-428-response',
    statement:
      'Endpoints: authenticated endpoints may answer with the statuses 400, 401, 403, 404, 409, 428, 429, 500; Errors: idempotency_required | 428 (the YAML file under {alt_base_url})',
    request(c) {
      // The alternate region's YAML export runs through a linter profile that only knows RFC 7231 statuses.
      home(c);
      if (c.base !== 'alt' || !isYaml(c)) return undefined;
      return yamlFile(versionOf(c) === EARLIER ? EARLIER : CURRENT, (doc) => {
        const responses = doc.paths?.[P('/connections')]?.post?.responses as Rec | undefined;
        if (responses) delete responses['428'];
      });
    },
  },
  {
    name: 'earlier-yaml-environment-enum-adds-staging',
    statement: 'Environment (enumeration): development, sandbox, pilot, production (the 2026-06-12 YAML file too)',
    request(c) {
      // The 2026-06-12 YAML file was exported from a branch that still had the retired staging value.
      home(c);
      if (c.base !== 'main' || !isYaml(c) || versionOf(c) !== EARLIER) return undefined;
      return yamlFile(EARLIER, (doc) => {
        const env = schemas(doc).Environment as Rec | undefined;
        if (Array.isArray(env?.enum)) env.enum = [...(env.enum as string[]), 'staging'];
      });
    },
  },
  {
    name: 'earlier-openapi-check-environment-default-production',
    statement:
      'POST /api/public/v1/capabilities: environment | no | Environment; default sandbox (the 2026-06-12 document too)',
    answer(c, a) {
      // The 2026-06-12 document was generated from the production gateway's schema, whose default is production.
      home(c);
      const env = schemas(a.json).CapabilityCheckRequest?.properties?.environment as Rec | undefined;
      if (isDoc(c, a) && versionOf(c) === EARLIER && env) {
        env.default = 'production';
        env.description = 'Default production';
      }
    },
  },
  {
    name: 'current-yaml-connection-capabilities-as-strings',
    statement:
      'Connection: capabilities | array of object | each entry: capability (string), critical (boolean), idempotencyRequired (boolean) (the current YAML file)',
    request(c) {
      // The YAML writer resolves the Connection's capabilities through the request schema of the same name.
      home(c);
      if (c.base !== 'main' || !isYaml(c) || versionOf(c) !== CURRENT) return undefined;
      return yamlFile(CURRENT, (doc) => {
        const conn = schemas(doc).Connection?.properties as Rec | undefined;
        if (conn?.capabilities) conn.capabilities = { type: 'array', items: { type: 'string' } };
      });
    },
  },
  {
    name: 'alt-openapi-stream-cursor-typed-string',
    statement:
      'GET /api/public/v1/stream: cursor | query | integer, minimum 0 (the OpenAPI document under {alt_base_url})',
    answer(c, a) {
      // The alternate region's document generator maps every query parameter to a string.
      home(c);
      const params = (a.json.paths as Rec | undefined)?.[P('/stream')]?.get?.parameters;
      if (c.base !== 'alt' || !isDoc(c, a) || !Array.isArray(params)) return;
      for (const p of params as Rec[]) if (p?.name === 'cursor') p.schema = { type: 'string' };
    },
  },
  {
    name: 'earlier-openapi-meta-at-format-date',
    statement: 'Meta: at | string, date-time | yes (the 2026-06-12 document too)',
    answer(c, a) {
      // The 2026-06-12 Meta schema was hand-written and its author typed "date".
      home(c);
      const at = schemas(a.json).Meta?.properties?.at as Rec | undefined;
      if (isDoc(c, a) && versionOf(c) === EARLIER && at?.format === 'date-time') at.format = 'date';
    },
  },
  {
    name: 'earlier-self-description-omits-key-route',
    statement:
      'GET /api/public/v1: data: routes (array of RouteInfo); Endpoints: POST /api/public/v1/idempotency-keys (with Service-Version 2026-06-12 too)',
    answer(c, a) {
      // The 2026-06-12 route table was built before the key route was moved from the internal router.
      home(c);
      const data = a.json.data as Rec | undefined;
      if (c.method !== 'GET' || (c.path !== P('') && c.path !== P('/')) || versionOf(c) !== EARLIER) return;
      if (Array.isArray(data?.routes))
        data.routes = (data.routes as Rec[]).filter((r) => r?.path !== P('/idempotency-keys'));
    },
  },
];
