import { buildOpenApiDocument } from '../../../simulator/contract/openapi.ts';
import { openApiYaml } from '../../../simulator/contract/openapi-yaml.ts';
import { isSupportedVersion } from '../../../simulator/contract/versions.ts';
import type { ProxyAnswer, ProxyCall, UnseenViolation } from './proxy.ts';
import { P } from './proxy-helpers.ts';

/**
 * Round 34 of the unseen violations, part 3: the OpenAPI document, its YAML file and the self-description
 * — a YAML file without the key header on creation, a YAML file indented with tabs, venue names of one
 * character, the earlier document without the capability check, the alternate self-description without
 * the receiver registration, the provider list documented with the failure envelope, and a nullable time.
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
/** The JSON document this address served for the version, else the one the service builds from its contract. */
const sourceDoc = (c: ProxyCall): Rec | undefined => {
  const version = versionOf(c);
  if (!isSupportedVersion(version)) return undefined;
  const seen = c.memory.get(`r34-json:${c.base}:${version}`) as Rec | undefined;
  return structuredClone(seen ?? (buildOpenApiDocument({ version }) as Rec));
};
/** Remembers each served JSON document (before any edit) so the YAML file can be built from it. */
const remember = (c: ProxyCall, a: ProxyAnswer) => {
  if (isDoc(c, a)) c.memory.set(`r34-json:${c.base}:${versionOf(c)}`, structuredClone(a.json));
};
/** A current-version edit made by the one generator that writes both the JSON and the YAML file. */
const bothFiles = (edit: (doc: Rec) => void): Pick<UnseenViolation, 'request' | 'answer'> => ({
  request(c) {
    if (!isYaml(c) || versionOf(c) !== CURRENT) return undefined;
    const doc = sourceDoc(c);
    if (!doc) return undefined;
    edit(doc);
    return yamlAnswer(openApiYaml(doc));
  },
  answer(c, a) {
    remember(c, a);
    if (isDoc(c, a) && versionOf(c) === CURRENT) edit(a.json);
  },
});
const dropCheck = (doc: Rec) => {
  const item = doc.paths?.[P('/capabilities')] as Rec | undefined;
  if (item?.post && item.get) delete item.post;
};
const schemaOf = (doc: Rec, name: string) => doc.components?.schemas?.[name] as Rec | undefined;

export const ROUND34_DOCUMENTS: UnseenViolation[] = [
  {
    name: 'yaml-creation-lacks-key-header',
    statement:
      'POST /api/public/v1/connections: Header Idempotency-Key is required; the description is also offered as downloadable JSON and YAML files',
    request(c) {
      // The YAML exporter drops header parameters given as $ref or inline objects it cannot resolve.
      if (!isYaml(c)) return undefined;
      const doc = sourceDoc(c);
      const op = doc?.paths?.[P('/connections')]?.post as Rec | undefined;
      if (!doc || !op || !Array.isArray(op.parameters)) return undefined;
      op.parameters = op.parameters.filter((p: Rec) => String(p?.name).toLowerCase() !== 'idempotency-key');
      return yamlAnswer(openApiYaml(doc));
    },
    answer: remember,
  },
  {
    name: 'yaml-indented-with-tabs',
    statement:
      'GET /api/public/v1/openapi.json: The description is also offered as downloadable JSON and YAML files per version',
    request(c) {
      // A post-processing step "saves bytes" by turning each pair of leading spaces into a tab, which YAML forbids.
      if (!isYaml(c)) return undefined;
      const doc = sourceDoc(c);
      if (!doc) return undefined;
      const text = openApiYaml(doc).replace(/^((?: {2})+)/gm, (lead: string) => '\t'.repeat(lead.length / 2));
      return yamlAnswer(text);
    },
    answer: remember,
  },
  {
    name: 'openapi-create-scope-label-min-length-one',
    statement: 'POST /api/public/v1/connections: scopeLabel | string | length 2 to 120 (the description says so)',
    ...bothFiles((doc) => {
      // The description was generated from a model that used "non-empty" for every text field.
      const s = schemaOf(doc, 'CreateConnectionRequest')?.properties?.scopeLabel as Rec | undefined;
      if (s) s.minLength = 1;
    }),
  },
  {
    name: 'earlier-version-openapi-omits-capability-check',
    statement:
      'Versioning: Changes of 2026-07-01: the endpoint reference … ; a delivery log for webhooks was added (the 2026-06-12 description still offers POST /capabilities)',
    request(c) {
      // The YAML file of that version comes from the same route filter.
      const doc = isYaml(c) && versionOf(c) === EARLIER ? sourceDoc(c) : undefined;
      if (!doc) return undefined;
      dropCheck(doc);
      return yamlAnswer(openApiYaml(doc));
    },
    answer(c, a) {
      // The earlier document is built from a route filter that keys routes by path, keeping only the first method.
      remember(c, a);
      if (isDoc(c, a) && versionOf(c) === EARLIER) dropCheck(a.json);
    },
  },
  {
    name: 'alt-self-description-omits-webhook-registration',
    statement:
      'Endpoints: POST | /api/public/v1/webhooks | yes + key | create a webhook receiver (the self-description under {alt_base_url} lists it too)',
    answer(c, a) {
      // The alternate address's route list is filtered by a feature flag for receivers that was never set there.
      if (c.base !== 'alt' || c.method !== 'GET' || c.path !== P('') || a.status !== 200) return;
      const routes = a.json.data?.routes as Rec[] | undefined;
      if (Array.isArray(routes))
        a.json.data.routes = routes.filter((r) => !(r?.method === 'POST' && r.path === P('/webhooks')));
    },
  },
  {
    name: 'openapi-providers-success-documents-failure-envelope',
    statement:
      'Success envelope (every JSON success response): ok | boolean | always true (the provider list’s 200 answer is described so)',
    ...bothFiles((doc) => {
      // A copy-paste in the route definition gave the success response the error schema.
      const ok = doc.paths?.[P('/providers')]?.get?.responses?.['200']?.content?.['application/json'] as
        | Rec
        | undefined;
      if (ok) ok.schema = { $ref: '#/components/schemas/FailureEnvelope' };
    }),
  },
  {
    name: 'openapi-meta-at-nullable',
    statement: 'Meta: at | string, date-time | yes (the description does not allow null)',
    ...bothFiles((doc) => {
      // The model's timestamp was declared Optional[datetime] and the generator emitted a null branch.
      const at = schemaOf(doc, 'Meta')?.properties?.at as Rec | undefined;
      if (at && typeof at.type === 'string') at.type = [at.type, 'null'];
    }),
  },
];
