import { buildOpenApiDocument } from '../../../simulator/contract/openapi.ts';
import { openApiYaml } from '../../../simulator/contract/openapi-yaml.ts';
import { CURRENT_VERSION, isSupportedVersion } from '../../../simulator/contract/versions.ts';
import type { ProxyAnswer, ProxyCall, UnseenViolation } from './proxy.ts';
import { P } from './proxy-helpers.ts';
import { failure } from './round6-support.ts';

/**
 * Round 10 of the unseen violations, part 1: the published description and the self-description —
 * documented where a header lives, how the token is sent, whether the tenant is needed, how a body
 * is encoded, the routes' methods, and the YAML download that is listed but not served.
 */
type Rec = Record<string, any>;
const isOpenApi = (c: ProxyCall) => c.method === 'GET' && c.path === P('/openapi.json');
/** Visits every object of a document. */
const walk = (x: unknown, f: (o: Rec) => void) => {
  if (!x || typeof x !== 'object') return;
  f(x as Rec);
  for (const v of Object.values(x as Rec)) walk(v, f);
};
const isYaml = (c: ProxyCall) => c.method === 'GET' && /\/openapi[^/]*\.ya?ml$/.test(c.path);
/** The version a document call asks for (query or header), as the deployment reads it. */
const versionOf = (c: ProxyCall) =>
  [c.search.get('version'), c.headers['service-version']].find((v) => v && isSupportedVersion(v)) ?? CURRENT_VERSION;

/**
 * One generator bug, published in both files: `edit` changes the JSON document, and the YAML download
 * is written from the same edited document (the one served as JSON, or the same build).
 */
function documented(edit: (doc: Rec) => void): Pick<UnseenViolation, 'request' | 'answer'> {
  return {
    request(c) {
      if (!isYaml(c)) return undefined;
      const v = versionOf(c);
      const doc = structuredClone(
        (c.memory.get(`doc:${v}`) as Rec | undefined) ?? (buildOpenApiDocument({ version: v as never }) as Rec),
      );
      if (!c.memory.has(`doc:${v}`)) edit(doc);
      const answer: ProxyAnswer = {
        status: 200,
        headers: { 'content-type': 'application/yaml; charset=utf-8' },
        json: {},
        raw: openApiYaml(doc),
      };
      return answer;
    },
    answer(c, a) {
      if (!isOpenApi(c) || a.status !== 200) return;
      edit(a.json as Rec);
      c.memory.set(`doc:${versionOf(c)}`, structuredClone(a.json));
    },
  };
}
const isParam = (o: Rec, name: string) => typeof o.name === 'string' && o.name.toLowerCase() === name && 'in' in o;

export const ROUND10_DOCUMENTS: UnseenViolation[] = [
  {
    name: 'openapi-key-documented-in-query',
    statement:
      'POST /api/public/v1/connections: Header Idempotency-Key is required (Authentication: Idempotency-Key | on modifying calls — a header)',
    // The generator's parameter helper defaults `in` to query; the key's declaration forgot to set it.
    ...documented((doc) =>
      walk(doc, (o) => {
        if (isParam(o, 'idempotency-key') && o.in === 'header') o.in = 'query';
      }),
    ),
  },
  {
    name: 'openapi-bearer-documented-as-query-key',
    statement:
      'Authentication: Authorization | Bearer token obtained through an OAuth flow (the published description says how the token is sent)',
    // A security scheme copied from an older API-key product replaces the OAuth one under the same name.
    ...documented((doc) => {
      const schemes = doc.components?.securitySchemes as Rec | undefined;
      for (const k of Object.keys(schemes ?? {}))
        if (schemes) schemes[k] = { type: 'apiKey', in: 'query', name: 'access_token', description: 'Access token' };
    }),
  },
  {
    name: 'openapi-tenant-header-optional',
    statement:
      'Authentication: Required on every authenticated call: x-service-tenant | identifier of the tenant for which the call applies',
    // The tenant was made optional in the description "because the token has a default tenant".
    ...documented((doc) =>
      walk(doc, (o) => {
        if (isParam(o, 'x-service-tenant')) o.required = false;
      }),
    ),
  },
  {
    name: 'openapi-create-body-documented-as-form',
    statement: 'POST /api/public/v1/connections: Body (JSON), all fields required',
    // The framework's form-data decorator on the create handler changed the documented media type.
    ...documented((doc) => {
      const op = doc.paths?.[P('/connections')]?.post as Rec | undefined;
      const content = op?.requestBody?.content as Rec | undefined;
      if (op && content?.['application/json'])
        op.requestBody.content = { 'application/x-www-form-urlencoded': content['application/json'] };
    }),
  },
  {
    name: 'self-description-methods-lowercase',
    statement:
      'GET /api/public/v1: routes (array of RouteInfo): method | string (the Endpoints table: GET, POST — HTTP methods are case-sensitive)',
    answer(c, a) {
      // The route table is read from the router, which keys its handlers by lower-case method names.
      if (c.method !== 'GET' || c.path !== P('') || !Array.isArray(a.json.data?.routes)) return;
      for (const r of a.json.data.routes as Rec[]) if (typeof r.method === 'string') r.method = r.method.toLowerCase();
    },
  },
  {
    name: 'openapi-yaml-listed-not-served',
    statement:
      'GET /api/public/v1/openapi.json: The description is also offered as downloadable JSON and YAML files per version.',
    request(c) {
      // The YAML build step was dropped from the deploy pipeline; the route list still names the file.
      if (!isYaml(c)) return undefined;
      return failure(c, 404, 'not_found', 'The entry does not exist.');
    },
  },
];
