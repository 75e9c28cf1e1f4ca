import { buildOpenApiDocument } from '../../../simulator/contract/openapi.ts';
import { openApiYaml } from '../../../simulator/contract/openapi-yaml.ts';
import { CURRENT_VERSION, isSupportedVersion } from '../../../simulator/contract/versions.ts';
import type { ProxyAnswer, ProxyCall, UnseenViolation } from './proxy.ts';
import { P } from './proxy-helpers.ts';

/**
 * Round 14 of the unseen violations, part 4: the published description — an error-code enumeration
 * without rate_limited and internal, the check's answer closed without its environment, an Environment
 * value that does not exist, meta optional in success envelopes, an OpenAPI 3.0 exclusiveMinimum on
 * the cursor, the creation body documented with the sample's restaurantId, the creation's answer
 * documented as the list, a key pattern that is not a valid expression, and a filter parameter
 * declared twice.
 */
type Rec = Record<string, any>;
const isOpenApi = (c: ProxyCall) => c.method === 'GET' && c.path === P('/openapi.json');
const isYaml = (c: ProxyCall) => c.method === 'GET' && /\/openapi[^/]*\.ya?ml$/.test(c.path);
const versionOf = (c: ProxyCall) =>
  [c.search.get('version'), c.headers['service-version']].find((v) => v && isSupportedVersion(v)) ?? CURRENT_VERSION;

/** One generator bug, published in the JSON document and in the YAML download rendered from it. */
function documented(edit: (doc: Rec) => void): Pick<UnseenViolation, 'request' | 'answer'> {
  return {
    request(c) {
      if (!isYaml(c)) return undefined;
      const doc = structuredClone(buildOpenApiDocument({ version: versionOf(c) as never }) as Rec);
      edit(doc);
      const answer: ProxyAnswer = {
        status: 200,
        headers: { 'content-type': 'application/yaml; charset=utf-8' },
        json: {},
        raw: openApiYaml(doc),
      };
      return answer;
    },
    answer(c, a) {
      if (isOpenApi(c) && a.status === 200) edit(a.json as Rec);
    },
  };
}
/** Every object inside a document (depth first). */
function* walk(x: unknown): Generator<Rec> {
  if (!x || typeof x !== 'object') return;
  if (!Array.isArray(x)) yield x as Rec;
  for (const v of Object.values(x as Rec)) yield* walk(v);
}
const ok200 = (doc: Rec, path: string, method: string) =>
  doc.paths?.[P(path)]?.[method]?.responses?.['200']?.content?.['application/json']?.schema as Rec | undefined;

export const ROUND14_DOCUMENTS: UnseenViolation[] = [
  {
    name: 'openapi-error-codes-lack-retryable',
    statement:
      'Errors: the codes unauthorized … rate_limited | 429 … internal | 500 (Failure envelope: error.code | one of the codes in the Errors part)',
    ...documented((doc) => {
      // The code enumeration is generated from the handlers' codes; 429 and 500 come from middleware it never scans.
      for (const o of walk(doc))
        if (Array.isArray(o.enum) && o.enum.includes('idempotency_required'))
          o.enum = o.enum.filter((x: unknown) => x !== 'rate_limited' && x !== 'internal');
    }),
  },
  {
    name: 'openapi-check-answer-closed-without-environment',
    statement: 'POST /api/public/v1/capabilities: data: decision (CapabilityDecision), environment (Environment)',
    ...documented((doc) => {
      // The answer schema is derived from the decision type alone and closed with additionalProperties: false.
      const data = ok200(doc, '/capabilities', 'post')?.properties?.data as Rec | undefined;
      if (!data?.properties) return;
      delete data.properties.environment;
      data.additionalProperties = false;
      if (Array.isArray(data.required)) data.required = data.required.filter((x: unknown) => x !== 'environment');
    }),
  },
  {
    name: 'openapi-environment-adds-staging',
    statement: 'Environment (enumeration): development, sandbox, pilot, production.',
    ...documented((doc) => {
      // The enumeration is read from the deployment's own stage list, which has a "staging" stage.
      for (const o of walk(doc))
        if (Array.isArray(o.enum) && o.enum.includes('pilot') && !o.enum.includes('staging'))
          o.enum = [...o.enum, 'staging'];
    }),
  },
  {
    name: 'openapi-success-meta-optional',
    statement: 'Success envelope (every JSON success response): meta | Meta | yes',
    ...documented((doc) => {
      // The envelope helper lists only ok and data as required; meta was added to the type later.
      for (const o of walk(doc))
        if (Array.isArray(o.required) && o.required.includes('ok') && o.required.includes('data'))
          o.required = o.required.filter((x: unknown) => x !== 'meta');
    }),
  },
  {
    name: 'openapi-cursor-exclusive-minimum-boolean',
    statement:
      'GET /api/public/v1/stream: cursor | query | integer, minimum 0 (GET /openapi.json: OpenAPI 3.1, where exclusiveMinimum is a number)',
    ...documented((doc) => {
      // A schema carried over from OpenAPI 3.0 keeps the boolean exclusiveMinimum, invalid in 3.1 and excluding 0.
      for (const p of (doc.paths?.[P('/stream')]?.get?.parameters ?? []) as Rec[])
        if (p.name === 'cursor' && p.schema) p.schema.exclusiveMinimum = true;
    }),
  },
  {
    name: 'openapi-create-body-documents-restaurant-id',
    statement:
      'POST /api/public/v1/connections: A sample call for this endpoint sends a field restaurantId in place of scopeLabel; the field list above is the schema.',
    ...documented((doc) => {
      // The request schema was generated from the sample call rather than from the field list.
      const s = doc.components?.schemas?.CreateConnectionRequest as Rec | undefined;
      if (!s?.properties?.scopeLabel) return;
      s.properties.restaurantId = s.properties.scopeLabel;
      delete s.properties.scopeLabel;
      if (Array.isArray(s.required))
        s.required = s.required.map((x: unknown) => (x === 'scopeLabel' ? 'restaurantId' : x));
    }),
  },
  {
    name: 'openapi-create-answer-documented-as-list',
    statement: 'POST /api/public/v1/connections: data: the Connection.',
    ...documented((doc) => {
      // The creation's 200 response was copied from GET /connections in the route table.
      const list = ok200(doc, '/connections', 'get');
      const create = doc.paths?.[P('/connections')]?.post?.responses?.['200']?.content?.['application/json'];
      if (list && create) create.schema = structuredClone(list);
    }),
  },
  {
    name: 'openapi-key-pattern-invalid-range',
    statement:
      'Limits: Idempotency-Key | pattern ^[A-Za-z0-9._:-]{8,128}$ (8 to 128 characters of letters, digits, dot, underscore, colon, hyphen)',
    ...documented((doc) => {
      // Someone "tidied" the character class and moved the hyphen, turning ":-." into an out-of-order range.
      for (const o of walk(doc)) if (o.pattern === '^[A-Za-z0-9._:-]{8,128}$') o.pattern = '^[A-Za-z0-9_:-.]{8,128}$';
    }),
  },
  {
    name: 'openapi-connectors-filter-declared-twice',
    statement:
      'GET /api/public/v1/connectors: Query parameter capability | providerId | category (each once; OpenAPI 3.1 parameters are unique by name and location)',
    ...documented((doc) => {
      // The shared "category" parameter is merged into the operation's own list without de-duplication.
      const get = doc.paths?.[P('/connectors')]?.get as Rec | undefined;
      const params = (get?.parameters ?? []) as Rec[];
      const category = params.find((p) => p.name === 'category' && p.in === 'query');
      if (get && category) get.parameters = [...params, { ...structuredClone(category), description: 'Category' }];
    }),
  },
];
