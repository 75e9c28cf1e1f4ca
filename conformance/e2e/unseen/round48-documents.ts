import type { ProxyAnswer, ProxyCall, UnseenViolation } from './proxy.ts';
import { home, P } from './proxy-helpers.ts';
import { CURRENT, earlier, type Rec } from './round44-common.ts';

/** Round 48, part 3: the OpenAPI document, the version files and the self-description against what is served. */
const isDoc = (c: ProxyCall, a: ProxyAnswer) =>
  c.method === 'GET' && c.path === P('/openapi.json') && a.status === 200 && Boolean(a.json.paths);
const isYaml = (c: ProxyCall) => c.method === 'GET' && c.path === P('/openapi.yaml');
const schemas = (a: ProxyAnswer) => ((a.json as Rec).components?.schemas ?? {}) as Rec;
/** YAML lines left in which the tenant parameter's `required` is rewritten (per stream call). */
const tenantWindow = new WeakMap<ProxyCall, number>();

export const ROUND48_DOCUMENTS: UnseenViolation[] = [
  {
    name: 'alt-earlier-json-document-info-version-current',
    statement:
      'GET /api/public/v1/openapi.json: offered as downloadable JSON files per version; earlier version 2026-06-12 (the 2026-06-12 file under {alt_base_url})',
    answer(c, a) {
      // The alternate address's document cache is keyed by path only and stamps the current version on every file.
      home(c);
      if (c.base === 'alt' && isDoc(c, a) && earlier(c) && (a.json as Rec).info) (a.json as Rec).info.version = CURRENT;
    },
  },
  {
    name: 'openapi-connection-scope-label-max-length-64',
    statement: 'Limits: scopeLabel | length 2 to 120 (the document’s Connection schema)',
    answer(c, a) {
      // The response schema reuses a display-name type of the admin UI that caps names at 64.
      home(c);
      const label = schemas(a).Connection?.properties?.scopeLabel as Rec | undefined;
      if (isDoc(c, a) && label) label.maxLength = 64;
    },
  },
  {
    name: 'self-description-check-route-purpose-says-catalog',
    statement: 'Endpoints: POST /api/public/v1/capabilities | check a capability of a connector (RouteInfo purpose)',
    answer(c, a) {
      // The route table is keyed by path, so the check inherits the purpose of GET on the same path.
      home(c);
      const routes = a.json.data?.routes;
      if (c.method !== 'GET' || c.path !== P('') || !Array.isArray(routes)) return;
      for (const r of routes as Rec[])
        if (r?.method === 'POST' && r.path === P('/capabilities')) r.purpose = 'capability catalog';
    },
  },
  {
    name: 'yaml-current-tenant-header-optional',
    statement:
      'Authentication: x-service-tenant | identifier of the tenant, required on every authenticated call (the current YAML file)',
    stream(c, lines) {
      // The YAML exporter maps header parameters through a table that lost the tenant header's required flag.
      home(c);
      if (!isYaml(c) || earlier(c)) return lines;
      return lines
        .split('\n')
        .map((l) => {
          if (
            /description: "?Identifier of the tenant for which the call applies"?\s*$/.test(l) &&
            /^\s{10,}desc/.test(l)
          )
            tenantWindow.set(c, 2);
          const left = tenantWindow.get(c) ?? 0;
          if (left <= 0) return l;
          tenantWindow.set(c, left - 1);
          return /^\s+required: true\s*$/.test(l) ? l.replace('true', 'false') : l;
        })
        .join('\n');
    },
  },
  {
    name: 'earlier-json-document-environment-enum-lacks-development',
    statement: 'Environment (enumeration): development, sandbox, pilot, production (the 2026-06-12 JSON file)',
    answer(c, a) {
      // The 2026-06-12 file was generated before development was added to the shared enum module.
      home(c);
      const env = schemas(a).Environment as Rec | undefined;
      if (isDoc(c, a) && earlier(c) && Array.isArray(env?.enum))
        env.enum = (env.enum as string[]).filter((e) => e !== 'development');
    },
  },
  {
    name: 'openapi-after-self-description-read-lacks-check-operation',
    statement:
      'Endpoints: POST /api/public/v1/capabilities | check a capability of a connector (the OpenAPI document read after the self-description)',
    answer(c, a) {
      // Both handlers share one mutable route table, and the self-description merges the two capability routes in it.
      home(c);
      if (c.method === 'GET' && c.path === P('') && a.status === 200) c.memory.set('r48-described', true);
      const item = (a.json as Rec).paths?.[P('/capabilities')] as Rec | undefined;
      if (isDoc(c, a) && c.memory.get('r48-described') && item) delete item.post;
    },
  },
];
