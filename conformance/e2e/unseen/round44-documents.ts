import type { ProxyAnswer, ProxyCall, UnseenViolation } from './proxy.ts';
import { home, P } from './proxy-helpers.ts';
import { CURRENT, EARLIER, earlier, type Rec } from './round44-common.ts';

/** Round 44, part 3: the OpenAPI document, its YAML file and the self-description. */
const isDoc = (c: ProxyCall, a: ProxyAnswer) =>
  c.method === 'GET' && c.path === P('/openapi.json') && a.status === 200 && Boolean(a.json.paths);
const isYaml = (c: ProxyCall) => c.method === 'GET' && c.path === P('/openapi.yaml');
const isSelf = (c: ProxyCall) => c.method === 'GET' && (c.path === P('') || c.path === P('/'));
/** Lines of a YAML answer seen since a property name (per call: a stream hook has no other state). */
const since = new WeakMap<ProxyCall, number>();

export const ROUND44_DOCUMENTS: UnseenViolation[] = [
  {
    name: 'earlier-openapi-providers-without-security',
    statement:
      'Endpoints: GET /api/public/v1/providers | Auth: yes; Authentication: Public endpoints: GET /api/public/v1, openapi.json, stream (the 2026-06-12 document)',
    answer(c, a) {
      // The 2026-06-12 generator treated catalog reads as public before the catalog scope existed.
      home(c);
      const get = (a.json as Rec).paths?.[P('/providers')]?.get as Rec | undefined;
      if (isDoc(c, a) && earlier(c) && get) get.security = [];
    },
  },
  {
    name: 'alt-yaml-operation-max-length-64',
    statement: 'Limits: operation in idempotency key creation | length 2 to 80 (the YAML file under {alt_base_url})',
    stream(c, lines) {
      // The alternate address serves a YAML file from an old build cache with the earlier 64 limit.
      home(c);
      return c.base === 'alt' && isYaml(c) ? lines.replaceAll('maxLength: 80', 'maxLength: 64') : lines;
    },
  },
  {
    name: 'earlier-yaml-scope-label-min-length-3',
    statement: 'Limits: scopeLabel | length 2 to 120 (the 2026-06-12 YAML file)',
    stream(c, lines) {
      // The 2026-06-12 YAML was hand-edited once for a venue-name rule that never shipped.
      home(c);
      if (!isYaml(c) || !earlier(c)) return lines;
      return lines
        .split('\n')
        .map((l) => {
          if (/^\s*scopeLabel:\s*$/.test(l)) since.set(c, 0);
          const n = since.get(c);
          if (n === undefined) return l;
          since.set(c, n + 1);
          if (n > 6) since.delete(c);
          if (!/minLength: 2$/.test(l)) return l;
          since.delete(c);
          return l.replace('minLength: 2', 'minLength: 3');
        })
        .join('\n');
    },
  },
  {
    name: 'alt-earlier-self-description-version-current',
    statement:
      'GET /api/public/v1: data: version (string); Versioning: An earlier published version is 2026-06-12 (asked for under {alt_base_url})',
    answer(c, a) {
      // The alternate address renders the self-description from the running build's constant.
      home(c);
      if (c.base === 'alt' && isSelf(c) && earlier(c) && a.json.data?.version === EARLIER)
        a.json.data.version = CURRENT;
    },
  },
  {
    name: 'alt-self-description-routes-omit-audit-log',
    statement:
      'GET /api/public/v1: data: routes (array of RouteInfo) — Endpoints: GET /api/public/v1/audit-log (the self-description under {alt_base_url})',
    answer(c, a) {
      // The alternate gateway filters "internal" routes out of the listing and audit counts as one there.
      home(c);
      const routes = a.json.data?.routes;
      if (c.base === 'alt' && isSelf(c) && Array.isArray(routes))
        a.json.data.routes = (routes as Rec[]).filter((r) => r?.path !== P('/audit-log'));
    },
  },
  {
    name: 'earlier-openapi-provider-category-required',
    statement: 'GET /api/public/v1/providers: category | string | Required: no (the 2026-06-12 document)',
    answer(c, a) {
      // The 2026-06-12 generator marked every query parameter required.
      home(c);
      const get = (a.json as Rec).paths?.[P('/providers')]?.get;
      if (!isDoc(c, a) || !earlier(c) || !Array.isArray(get?.parameters)) return;
      for (const p of get.parameters as Rec[]) if (p?.name === 'category') p.required = true;
    },
  },
  {
    name: 'alt-earlier-openapi-connectors-lack-provider-id',
    statement:
      'GET /api/public/v1/connectors: Query parameter providerId | string | no (the 2026-06-12 document under {alt_base_url})',
    answer(c, a) {
      // The alternate address keeps an earlier document build that predates the providerId filter binding.
      home(c);
      const get = (a.json as Rec).paths?.[P('/connectors')]?.get as Rec | undefined;
      if (c.base === 'alt' && isDoc(c, a) && earlier(c) && Array.isArray(get?.parameters))
        get.parameters = (get.parameters as Rec[]).filter((p) => p?.name !== 'providerId');
    },
  },
];
