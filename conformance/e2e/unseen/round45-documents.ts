import type { ProxyAnswer, ProxyCall, UnseenViolation } from './proxy.ts';
import { home, P } from './proxy-helpers.ts';
import { earlier, type Rec } from './round44-common.ts';

/** Round 45, part 3: the OpenAPI document, its YAML files and the self-description. */
const isDoc = (c: ProxyCall, a: ProxyAnswer) =>
  c.method === 'GET' && c.path === P('/openapi.json') && a.status === 200 && Boolean(a.json.paths);
const isYaml = (c: ProxyCall) => c.method === 'GET' && c.path === P('/openapi.yaml');
const isSelf = (c: ProxyCall) => c.method === 'GET' && (c.path === P('') || c.path === P('/'));
const schema = (a: ProxyAnswer, name: string) => (a.json as Rec).components?.schemas?.[name] as Rec | undefined;
/** Lines left in which a key header's `required: true` follows its pattern (per call: stream hooks have no other state). */
const window = new WeakMap<ProxyCall, number>();

export const ROUND45_DOCUMENTS: UnseenViolation[] = [
  {
    name: 'earlier-yaml-key-header-not-required',
    statement:
      'Versioning: Change of 2026-06-12 (security): modifying calls require an idempotency key (the 2026-06-12 YAML file)',
    stream(c, lines) {
      // The 2026-06-12 YAML was exported from the spec branch before the security change was merged.
      home(c);
      if (!isYaml(c) || !earlier(c)) return lines;
      return lines
        .split('\n')
        .map((l) => {
          if (/^\s+pattern: \^\[A-Za-z0-9\._:-\]\{8,128\}\$\s*$/.test(l)) window.set(c, 8);
          const left = window.get(c) ?? 0;
          if (left <= 0) return l;
          window.set(c, left - 1);
          if (!/^\s+required: true\s*$/.test(l)) return l;
          window.delete(c);
          return l.replace('required: true', 'required: false');
        })
        .join('\n');
    },
  },
  {
    name: 'current-yaml-key-pattern-max-64',
    statement:
      'Limits: Idempotency-Key | pattern ^[A-Za-z0-9._:-]{8,128}$ (8 to 128 characters) (the 2026-07-01 YAML file)',
    stream(c, lines) {
      // The current YAML is rendered by a template that still carries the draft's 64-character key.
      home(c);
      if (!isYaml(c) || earlier(c)) return lines;
      return lines.replaceAll('{8,128}$', '{8,64}$').replaceAll('8 to 128 letters', '8 to 64 letters');
    },
  },
  {
    name: 'earlier-openapi-scope-label-optional',
    statement:
      'POST /api/public/v1/connections: Body (JSON), all fields required: scopeLabel (the 2026-06-12 document)',
    answer(c, a) {
      // The 2026-06-12 generator dropped scopeLabel from required while restaurantId was its alias.
      home(c);
      const body = schema(a, 'CreateConnectionRequest');
      if (isDoc(c, a) && earlier(c) && Array.isArray(body?.required))
        body.required = (body.required as string[]).filter((f) => f !== 'scopeLabel');
    },
  },
  {
    name: 'alt-openapi-scope-label-max-119',
    statement: 'Limits: scopeLabel | length 2 to 120 (the document served under {alt_base_url})',
    answer(c, a) {
      // The alternate region's document build reserves one character for a NUL terminator of its C binding.
      home(c);
      const label = schema(a, 'CreateConnectionRequest')?.properties?.scopeLabel as Rec | undefined;
      if (c.base === 'alt' && isDoc(c, a) && label?.maxLength === 120) label.maxLength = 119;
    },
  },
  {
    name: 'earlier-self-description-omits-openapi-route',
    statement:
      'GET /api/public/v1: data: routes (array of RouteInfo) — Endpoints: GET /api/public/v1/openapi.json (asked for 2026-06-12)',
    answer(c, a) {
      // The 2026-06-12 route table registered the document route outside the versioned router.
      home(c);
      const routes = a.json.data?.routes;
      if (isSelf(c) && earlier(c) && Array.isArray(routes))
        a.json.data.routes = (routes as Rec[]).filter((r) => r?.path !== P('/openapi.json'));
    },
  },
  {
    name: 'alt-self-description-openapi-route-path-yaml',
    statement:
      'GET /api/public/v1: routes — Endpoints: GET /api/public/v1/openapi.json | OpenAPI 3.1 document (the self-description under {alt_base_url})',
    answer(c, a) {
      // The alternate region's route list is built from its static file map, where the YAML file won the slot.
      home(c);
      const routes = a.json.data?.routes;
      if (c.base !== 'alt' || !isSelf(c) || !Array.isArray(routes)) return;
      for (const r of routes as Rec[]) if (r?.path === P('/openapi.json')) r.path = P('/openapi.yaml');
    },
  },
  {
    name: 'earlier-yaml-capabilities-max-items-25',
    statement: 'Limits: capabilities in connection creation | 1 to 24 items (the 2026-06-12 YAML file)',
    stream(c, lines) {
      // The 2026-06-12 YAML was written by hand with an off-by-one item limit.
      home(c);
      return isYaml(c) && earlier(c) ? lines.replaceAll('maxItems: 24', 'maxItems: 25') : lines;
    },
  },
];
