import { openApiYaml } from '../../../simulator/contract/openapi-yaml.ts';
import type { ProxyAnswer, ProxyCall, UnseenViolation } from './proxy.ts';
import { P } from './proxy-helpers.ts';

/**
 * Round 33 of the unseen violations, part 3: the OpenAPI document, its YAML file and the self-description
 * — a renamed remaining-calls header, the check without development, a YAML file without the delivery
 * log, an earlier self-description listing it, the key route as GET, a pluralised audit path, the
 * alternate document narrowing connectorId, and replayed defaulting to true.
 */
type Rec = Record<string, any>;
const CURRENT = '2026-07-01';
const isDoc = (c: ProxyCall, a: ProxyAnswer) =>
  c.method === 'GET' && c.path === P('/openapi.json') && a.status === 200 && Boolean(a.json.paths);
const versionOf = (c: ProxyCall) => c.search.get('version') ?? c.headers['service-version'] ?? CURRENT;
const yamlAnswer = (doc: Rec): ProxyAnswer => ({
  status: 200,
  headers: { 'content-type': 'application/yaml; charset=utf-8', 'x-content-type-options': 'nosniff' },
  json: {},
  raw: openApiYaml(doc),
});
/**
 * A document violation of the current version (`where` narrows it to a place); the YAML download of the
 * same version and address is served from the edited JSON, as one generator writes both files.
 */
const documentEdit = (
  edit: (doc: Rec) => void,
  where: (c: ProxyCall) => boolean = () => true,
): Pick<UnseenViolation, 'request' | 'answer'> => ({
  request(c) {
    if (c.method !== 'GET' || c.path !== P('/openapi.yaml') || !where(c)) return undefined;
    const doc = c.memory.get(`r33-doc:${c.base}:${versionOf(c)}`) as Rec | undefined;
    return doc ? yamlAnswer(doc) : undefined;
  },
  answer(c, a) {
    if (!isDoc(c, a) || versionOf(c) !== CURRENT || !where(c)) return;
    edit(a.json);
    c.memory.set(`r33-doc:${c.base}:${versionOf(c)}`, structuredClone(a.json));
  },
});
const schemaOf = (doc: Rec, name: string) => doc.components?.schemas?.[name] as Rec | undefined;
const isSelf = (c: ProxyCall, a: ProxyAnswer) => c.method === 'GET' && c.path === P('') && a.status === 200;
const operations = (doc: Rec) =>
  Object.values((doc.paths ?? {}) as Rec).flatMap((item) => Object.values((item ?? {}) as Rec)) as Rec[];

export const ROUND33_DOCUMENTS: UnseenViolation[] = [
  {
    name: 'openapi-remaining-header-renamed',
    statement:
      'Limits: Response headers: X-RateLimit-Limit, X-RateLimit-Remaining (calls left in the window), Retry-After (the description names them so)',
    ...documentEdit((doc) => {
      // The header table was generated from an older gateway that called it X-RateLimit-Left.
      const rename = (headers: Rec | undefined) => {
        if (!headers?.['X-RateLimit-Remaining']) return;
        headers['X-RateLimit-Left'] = headers['X-RateLimit-Remaining'];
        delete headers['X-RateLimit-Remaining'];
      };
      rename(doc.components?.headers);
      for (const o of operations(doc))
        for (const r of Object.values((o?.responses ?? {}) as Rec)) rename((r as Rec)?.headers);
    }),
  },
  {
    name: 'openapi-check-environment-enum-omits-development',
    statement:
      'POST /api/public/v1/capabilities: environment | string | no | Environment (development, sandbox, pilot, production)',
    ...documentEdit((doc) => {
      // The check's schema listed the environments a partner "can book"; development was left out.
      const env = schemaOf(doc, 'CapabilityCheckRequest')?.properties?.environment as Rec | undefined;
      if (Array.isArray(env?.enum)) env.enum = env.enum.filter((e: string) => e !== 'development');
    }),
  },
  {
    name: 'yaml-current-drops-delivery-log-paths',
    statement:
      'Versioning: Changes of 2026-07-01: a delivery log for webhooks was added; the description is also offered as downloadable JSON and YAML files per version',
    request(c) {
      // The YAML build job still runs against the 2026-06-12 route table, so the current YAML file lacks
      // the delivery-log paths the current JSON has.
      if (c.method !== 'GET' || c.path !== P('/openapi.yaml') || versionOf(c) !== CURRENT) return undefined;
      const doc = c.memory.get(`r33-json:${c.base}`) as Rec | undefined;
      if (!doc) return undefined;
      const copy = structuredClone(doc);
      for (const k of Object.keys(copy.paths ?? {})) if (k.includes('/deliveries')) delete copy.paths[k];
      return yamlAnswer(copy);
    },
    answer(c, a) {
      if (isDoc(c, a) && versionOf(c) === CURRENT) c.memory.set(`r33-json:${c.base}`, structuredClone(a.json));
    },
  },
  {
    name: 'earlier-self-description-lists-delivery-log',
    statement:
      'Versioning: Changes of 2026-07-01: a delivery log for webhooks was added (the self-description of 2026-06-12 does not offer it)',
    answer(c, a) {
      // The route list is cached once per process from the current table, whatever version is asked for.
      if (!isSelf(c, a)) return;
      const routes = a.json.data?.routes as Rec[] | undefined;
      if (!Array.isArray(routes)) return;
      if (versionOf(c) === CURRENT) return void c.memory.set('r33-routes', structuredClone(routes));
      const current = c.memory.get('r33-routes') as Rec[] | undefined;
      const extra = (current ?? []).filter((r) => String(r?.path).includes('/deliveries'));
      if (extra.length) a.json.data.routes = [...routes, ...structuredClone(extra)];
    },
  },
  {
    name: 'self-description-key-route-method-get',
    statement: 'Endpoints: POST /api/public/v1/idempotency-keys | yes | generate an idempotency key (RouteInfo method)',
    answer(c, a) {
      // The route list is built from a handler map keyed by path, defaulting the method to GET.
      if (!isSelf(c, a)) return;
      for (const r of (a.json.data?.routes ?? []) as Rec[])
        if (r?.path === P('/idempotency-keys') && r.method === 'POST') r.method = 'GET';
    },
  },
  {
    name: 'openapi-audit-log-path-pluralised',
    statement: 'Endpoints: GET | /api/public/v1/audit-log | yes | audit log (the description names the served path)',
    ...documentEdit((doc) => {
      // A REST-naming linter rule rewrote collection paths to plurals in the published description.
      const paths = doc.paths as Rec | undefined;
      if (!paths?.[P('/audit-log')]) return;
      paths[P('/audit-logs')] = paths[P('/audit-log')];
      delete paths[P('/audit-log')];
    }),
  },
  {
    name: 'alt-openapi-connector-id-max-length-60',
    statement:
      'POST /api/public/v1/connections: connectorId | string | length 2 to 120 (the description under {alt_base_url} says so too)',
    ...documentEdit(
      (doc) => {
        // The alternate address serves a description built with the partner portal's column widths.
        for (const name of ['CreateConnectionRequest', 'CapabilityCheckRequest']) {
          const s = schemaOf(doc, name)?.properties?.connectorId as Rec | undefined;
          if (s) s.maxLength = 60;
        }
      },
      (c) => c.base === 'alt',
    ),
  },
  {
    name: 'openapi-meta-replayed-default-true',
    statement:
      'Meta: replayed | boolean | no | true when the response comes from an earlier identical operation (absent is not true)',
    ...documentEdit((doc) => {
      // The model field was declared `replayed: boolean = true` and the generator emitted the default.
      const s = schemaOf(doc, 'Meta')?.properties?.replayed as Rec | undefined;
      if (s) s.default = true;
    }),
  },
];
