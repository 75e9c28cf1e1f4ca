import { randomUUID } from 'node:crypto';
import { buildOpenApiDocument } from '../../../simulator/contract/openapi.ts';
import { openApiYaml } from '../../../simulator/contract/openapi-yaml.ts';
import { isSupportedVersion } from '../../../simulator/contract/versions.ts';
import type { ProxyAnswer, ProxyCall, UnseenViolation } from './proxy.ts';
import { home, P } from './proxy-helpers.ts';

/**
 * Round 38 of the unseen violations, part 3: the OpenAPI document and its YAML files — the earlier JSON
 * document naming the connections path in the singular, current YAML paths without the base path, the
 * earlier YAML file documenting the check as PUT, the earlier JSON document typing the capability filter
 * as an array, YAML key results expiring on a date, the alternate document reporting the earlier
 * version, and the earlier YAML file's cursor starting at one.
 */
type Rec = Record<string, any>;
const CURRENT = '2026-07-01';
const EARLIER = '2026-06-12';
const isDoc = (c: ProxyCall, a: ProxyAnswer) =>
  c.method === 'GET' && c.path === P('/openapi.json') && a.status === 200 && Boolean(a.json.paths);
const isYaml = (c: ProxyCall) => c.method === 'GET' && c.path === P('/openapi.yaml');
const versionOf = (c: ProxyCall) => c.search.get('version') ?? c.headers['service-version'] ?? CURRENT;
/** The YAML answer the service builds for the call's version after `edit`, for one version only. */
const yamlFor = (version: string, edit: (doc: Rec) => void) => (c: ProxyCall) => {
  if (!isYaml(c) || versionOf(c) !== version || !isSupportedVersion(version)) return undefined;
  const doc = structuredClone(buildOpenApiDocument({ version }) as Rec);
  edit(doc);
  const answer: ProxyAnswer = {
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
  return answer;
};
/** Edits the JSON document of one version only. */
const jsonFor = (version: string, edit: (doc: Rec) => void) => (c: ProxyCall, a: ProxyAnswer) => {
  if (isDoc(c, a) && versionOf(c) === version) edit(a.json);
};
const param = (doc: Rec, path: string, name: string) =>
  ((doc.paths?.[P(path)]?.get?.parameters ?? []) as Rec[]).find((p) => p?.name === name);

export const ROUND38_DOCUMENTS: UnseenViolation[] = [
  {
    name: 'earlier-openapi-connections-path-singular',
    statement: 'Endpoints: GET|POST /api/public/v1/connections (the 2026-06-12 JSON description names the same path)',
    // The 2026-06-12 document is rebuilt from an old route table that still used singular resource names.
    answer: jsonFor(EARLIER, (doc) => {
      const item = doc.paths?.[P('/connections')];
      if (!item) return;
      delete doc.paths[P('/connections')];
      doc.paths[P('/connection')] = item;
    }),
  },
  {
    name: 'yaml-paths-unprefixed',
    statement: 'All paths start with /api/public/v1 (the current YAML file’s paths too)',
    // The YAML exporter strips the server prefix, assuming servers carries it, but servers stays unchanged.
    request: yamlFor(CURRENT, (doc) => {
      doc.paths = Object.fromEntries(
        Object.entries((doc.paths ?? {}) as Rec).map(([k, v]) => [k.replace(P(''), '') || '/', v]),
      );
    }),
  },
  {
    name: 'earlier-yaml-check-documented-as-put',
    statement:
      'Endpoints: POST /api/public/v1/capabilities | check a capability of a connector (the 2026-06-12 YAML file too)',
    // The earlier YAML file was hand-maintained and kept a draft's PUT for the check.
    request: yamlFor(EARLIER, (doc) => {
      const item = doc.paths?.[P('/capabilities')];
      if (item?.post) {
        item.put = item.post;
        delete item.post;
      }
    }),
  },
  {
    name: 'earlier-openapi-connectors-capability-filter-array',
    statement:
      'GET /api/public/v1/connectors: capability | string | no (the 2026-06-12 JSON description types it as string too)',
    // The earlier document was generated from a schema that allowed repeated filters as an array.
    answer: jsonFor(EARLIER, (doc) => {
      const p = param(doc, '/connectors', 'capability');
      if (p) p.schema = { type: 'array', items: { type: 'string' } };
    }),
  },
  {
    name: 'yaml-key-result-expires-at-format-date',
    statement: 'Idempotency key result: expiresAt | string, date-time (the current YAML file documents date-time)',
    // The YAML converter maps the ORM's "timestamp without time" type to the OpenAPI format date.
    request: yamlFor(CURRENT, (doc) => {
      const expires = doc.components?.schemas?.IdempotencyKeyResult?.properties?.expiresAt;
      if (expires) expires.format = 'date';
    }),
  },
  {
    name: 'alt-openapi-info-version-earlier',
    statement:
      'Versioning: The current version identifier is 2026-07-01 (the OpenAPI document under {alt_base_url} describes it)',
    answer(c, a) {
      // The alternate region's CDN still caches the 2026-06-12 info block and splices it into the document.
      home(c);
      if (c.base === 'alt' && isDoc(c, a) && versionOf(c) === CURRENT && a.json.info && typeof a.json.info === 'object')
        (a.json.info as Rec).version = EARLIER;
    },
  },
  {
    name: 'earlier-yaml-stream-cursor-minimum-one',
    statement: 'Limits: cursor | integer, minimum 0 (the 2026-06-12 YAML file documents minimum 0)',
    // The earlier YAML file was written when the stream numbered from one and treated 0 as invalid.
    request: yamlFor(EARLIER, (doc) => {
      const p = param(doc, '/stream', 'cursor');
      if (p?.schema) p.schema.minimum = 1;
    }),
  },
];
