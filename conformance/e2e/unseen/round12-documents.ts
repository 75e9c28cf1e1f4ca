import { buildOpenApiDocument } from '../../../simulator/contract/openapi.ts';
import { openApiYaml } from '../../../simulator/contract/openapi-yaml.ts';
import { CURRENT_VERSION, isSupportedVersion } from '../../../simulator/contract/versions.ts';
import type { ProxyAnswer, ProxyCall, UnseenViolation } from './proxy.ts';
import { P } from './proxy-helpers.ts';

/**
 * Round 12 of the unseen violations, part 3: the published description and the self-description — a
 * creation without its 428 answer, the stream's Last-Event-ID left out, the connectors' providerId
 * filter left out, the document itself marked as needing a token, createdAt typed as a date, every
 * path with a trailing slash, a route path misspelt, and the earlier version's download showing the current one.
 */
type Rec = Record<string, any>;
const isOpenApi = (c: ProxyCall) => c.method === 'GET' && c.path === P('/openapi.json');
const isYaml = (c: ProxyCall) => c.method === 'GET' && /\/openapi[^/]*\.ya?ml$/.test(c.path);
const versionOf = (c: ProxyCall) =>
  [c.search.get('version'), c.headers['service-version']].find((v) => v && isSupportedVersion(v)) ?? CURRENT_VERSION;

/** One generator bug, published in the JSON document and in the YAML download rendered from it. */
function documented(edit: (doc: Rec, c: ProxyCall) => void): Pick<UnseenViolation, 'request' | 'answer'> {
  return {
    request(c) {
      if (!isYaml(c)) return undefined;
      const doc = structuredClone(buildOpenApiDocument({ version: versionOf(c) as never }) as Rec);
      edit(doc, c);
      const answer: ProxyAnswer = {
        status: 200,
        headers: { 'content-type': 'application/yaml; charset=utf-8' },
        json: {},
        raw: openApiYaml(doc),
      };
      return answer;
    },
    answer(c, a) {
      if (isOpenApi(c) && a.status === 200) edit(a.json as Rec, c);
    },
  };
}
const op = (doc: Rec, path: string, method: string) => doc.paths?.[P(path)]?.[method] as Rec | undefined;
const dropParam = (o: Rec | undefined, name: string) => {
  if (o && Array.isArray(o.parameters))
    o.parameters = o.parameters.filter((p: Rec) => String(p.name).toLowerCase() !== name.toLowerCase());
};

export const ROUND12_DOCUMENTS: UnseenViolation[] = [
  {
    name: 'openapi-create-omits-428',
    statement:
      'POST /api/public/v1/connections: A missing key yields idempotency_required (Errors: idempotency_required | 428; the endpoint reference is generated from the published description)',
    // The response list is built from the handler's own throws; the 428 comes from a middleware and is missed.
    ...documented((doc) => {
      const o = op(doc, '/connections', 'post');
      if (o?.responses) delete o.responses['428'];
    }),
  },
  {
    name: 'openapi-stream-last-event-id-undocumented',
    statement: 'GET /api/public/v1/stream: Last-Event-ID | header | string | no | last number read',
    // The generator documents only query parameters of the stream route.
    ...documented((doc) => dropParam(op(doc, '/stream', 'get'), 'last-event-id')),
  },
  {
    name: 'openapi-connectors-provider-id-undocumented',
    statement: 'GET /api/public/v1/connectors: Query parameter providerId | string | no',
    // providerId was added to the handler later and never to the route schema.
    ...documented((doc) => dropParam(op(doc, '/connectors', 'get'), 'providerId')),
  },
  {
    name: 'openapi-document-route-needs-token',
    statement:
      'Authentication: Public endpoints (no authentication): GET /api/public/v1, GET /api/public/v1/openapi.json, GET /api/public/v1/stream',
    // A global security default was added to the document and the public routes no longer override it.
    ...documented((doc) => {
      for (const path of ['', '/openapi.json']) {
        const o = op(doc, path, 'get');
        if (o) o.security = [{ oauth2: ['catalog:read'] }];
      }
    }),
  },
  {
    name: 'openapi-created-at-format-date',
    statement: 'Connection: createdAt | string, date-time',
    // The ORM column type (DATE) is mapped to `format: date` by the schema exporter.
    ...documented((doc) => {
      const p = doc.components?.schemas?.Connection?.properties?.createdAt as Rec | undefined;
      if (p) p.format = 'date';
    }),
  },
  {
    name: 'openapi-paths-trailing-slash',
    statement:
      'Endpoints: GET /api/public/v1/providers … (the published description names the same paths; the endpoint reference is generated from it)',
    // The router's strict-slash export appends "/" to every collection path.
    ...documented((doc) => {
      if (!doc.paths) return;
      doc.paths = Object.fromEntries(
        Object.entries(doc.paths as Rec).map(([k, v]) => [
          k === P('') || k.includes('{') || k.endsWith('.json') || k.endsWith('.yaml') ? k : `${k}/`,
          v,
        ]),
      );
    }),
  },
  {
    name: 'self-description-route-path-misspelt',
    statement: 'GET /api/public/v1: data: … routes (array of RouteInfo) (Endpoints: GET /api/public/v1/connectors)',
    answer(c, a) {
      // The route list is hand-maintained and carries a typo.
      if (c.method !== 'GET' || c.path !== P('') || !Array.isArray(a.json.data?.routes)) return;
      for (const r of a.json.data.routes as Rec[]) if (r.path === P('/connectors')) r.path = P('/conectors');
    },
  },
  {
    name: 'earlier-version-download-shows-current',
    statement:
      'GET /api/public/v1/openapi.json: The description is also offered as downloadable JSON and YAML files per version (the 2026-06-12 file describes 2026-06-12)',
    // The download cache is keyed by path only, so the first-built (current) document is served for every version.
    request(c) {
      if (!isOpenApi(c) && !isYaml(c)) return undefined;
      if (versionOf(c) !== CURRENT_VERSION) {
        c.search.delete('version');
        c.headers['service-version'] = CURRENT_VERSION;
      }
      return undefined;
    },
  },
];
