import { buildOpenApiDocument } from '../../../simulator/contract/openapi.ts';
import { openApiYaml } from '../../../simulator/contract/openapi-yaml.ts';
import { isSupportedVersion } from '../../../simulator/contract/versions.ts';
import type { ProxyAnswer, ProxyCall, UnseenViolation } from './proxy.ts';
import { home, P } from './proxy-helpers.ts';

/**
 * Round 35 of the unseen violations, part 3: the OpenAPI document, its YAML files and the self-description
 * — YAML booleans written as yes/no, the earlier YAML file with quoted numbers, the alternate YAML file
 * cut at a buffer size, the earlier JSON document with trailing commas, the alternate self-description's
 * version as a timestamp, a cursor documented in steps of ten, and the alternate Meta requiring a tenant.
 */
type Rec = Record<string, any>;
const CURRENT = '2026-07-01';
const EARLIER = '2026-06-12';
const isDoc = (c: ProxyCall, a: ProxyAnswer) =>
  c.method === 'GET' && c.path === P('/openapi.json') && a.status === 200 && Boolean(a.json.paths);
const isYaml = (c: ProxyCall) => c.method === 'GET' && c.path === P('/openapi.yaml');
const versionOf = (c: ProxyCall) => c.search.get('version') ?? c.headers['service-version'] ?? CURRENT;
const yamlAnswer = (text: string): ProxyAnswer => ({
  status: 200,
  headers: { 'content-type': 'application/yaml; charset=utf-8', 'x-content-type-options': 'nosniff' },
  json: {},
  raw: text,
});
/** The YAML text the service builds for the call's version, or undefined for a version it does not offer. */
const yamlOf = (c: ProxyCall, edit?: (doc: Rec) => void) => {
  const version = versionOf(c);
  if (!isSupportedVersion(version)) return undefined;
  const doc = structuredClone(buildOpenApiDocument({ version }) as Rec);
  edit?.(doc);
  return openApiYaml(doc);
};
/** A current-version edit made by the one generator that writes both the JSON and the YAML file. */
const bothFiles = (edit: (doc: Rec) => void): Pick<UnseenViolation, 'request' | 'answer'> => ({
  request(c) {
    const text = isYaml(c) && versionOf(c) === CURRENT ? yamlOf(c, edit) : undefined;
    return text === undefined ? undefined : yamlAnswer(text);
  },
  answer(c, a) {
    if (isDoc(c, a) && versionOf(c) === CURRENT) edit(a.json);
  },
});

export const ROUND35_DOCUMENTS: UnseenViolation[] = [
  {
    name: 'yaml-booleans-written-as-yes-no',
    statement:
      'GET /api/public/v1/openapi.json: The description is also offered as downloadable JSON and YAML files per version (the YAML file describes the same, e.g. required: true)',
    request(c) {
      // The YAML writer follows YAML 1.1 habits; YAML 1.2 readers take yes/no as strings, not booleans.
      const text = isYaml(c) && versionOf(c) === CURRENT ? yamlOf(c) : undefined;
      if (text === undefined) return undefined;
      return yamlAnswer(text.replace(/(: |- )true$/gm, '$1yes').replace(/(: |- )false$/gm, '$1no'));
    },
  },
  {
    name: 'earlier-version-yaml-numbers-quoted',
    statement:
      'GET /api/public/v1/openapi.json: … downloadable JSON and YAML files per version (the 2026-06-12 YAML file’s minLength, maxItems … are numbers)',
    request(c) {
      // The earlier file is rendered by a template that quotes every scalar it substitutes.
      const text = isYaml(c) && versionOf(c) === EARLIER ? yamlOf(c) : undefined;
      if (text === undefined) return undefined;
      return yamlAnswer(text.replace(/^(\s*(?:min|max)(?:Length|Items|imum): )(\d+)$/gm, "$1'$2'"));
    },
  },
  {
    name: 'alt-yaml-cut-at-buffer-size',
    statement:
      'GET /api/public/v1/openapi.json: The description is also offered as downloadable JSON and YAML files per version (under {alt_base_url} too)',
    request(c) {
      // The alternate edge proxy buffers file downloads in 64 KiB and sends only the first buffer.
      home(c);
      const text = c.base === 'alt' && isYaml(c) ? yamlOf(c) : undefined;
      if (text === undefined || text.length <= 65536) return undefined;
      return yamlAnswer(text.slice(0, 65536));
    },
  },
  {
    name: 'earlier-version-openapi-json-trailing-commas',
    statement:
      'GET /api/public/v1/openapi.json: Returns the machine-readable description of this interface as a JSON object (for 2026-06-12 too)',
    answer(c, a) {
      // The 2026-06-12 document is a hand-kept template written in JSON5 style, served as it is.
      if (!isDoc(c, a) || versionOf(c) !== EARLIER) return;
      a.raw = JSON.stringify(a.json, null, 2).replace(/\n(\s*[}\]])/g, ',\n$1');
    },
  },
  {
    name: 'alt-self-description-version-as-timestamp',
    statement:
      'Versioning: The current version identifier is 2026-07-01 (a date); GET /api/public/v1: data: version (string) (under {alt_base_url} too)',
    answer(c, a) {
      // The alternate address reads the version from the build's release timestamp instead of the contract.
      home(c);
      if (c.base !== 'alt' || c.method !== 'GET' || c.path !== P('') || a.status !== 200) return;
      const v = a.json.data?.version;
      if (typeof v === 'string' && /^\d{4}-\d\d-\d\d$/.test(v)) a.json.data.version = `${v}T00:00:00Z`;
    },
  },
  {
    name: 'openapi-cursor-multiple-of-ten',
    statement:
      'GET /api/public/v1/stream: cursor | query | integer, minimum 0 | last number read (the description allows every number)',
    ...bothFiles((doc) => {
      // The cursor parameter was copied from a paging parameter that only accepts page boundaries.
      const params = doc.paths?.[P('/stream')]?.get?.parameters as Rec[] | undefined;
      const cursor = params?.find((p) => p?.name === 'cursor' && p.in === 'query');
      if (cursor?.schema) cursor.schema.multipleOf = 10;
    }),
  },
  {
    name: 'alt-openapi-meta-requires-tenant',
    statement:
      'Meta: requestId, version, at required; idempotencyKey, replayed optional (the description under {alt_base_url} requires no further field)',
    answer(c, a) {
      // The alternate document is generated from a branch whose Meta model added a mandatory tenant field.
      home(c);
      const meta =
        isDoc(c, a) && c.base === 'alt' ? ((a.json as Rec).components?.schemas?.Meta as Rec | undefined) : undefined;
      if (!meta || !Array.isArray(meta.required)) return;
      meta.properties = { ...meta.properties, tenant: { type: 'string' } };
      meta.required = [...meta.required, 'tenant'];
    },
  },
];
