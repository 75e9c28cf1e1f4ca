import type { ProxyAnswer, ProxyCall, UnseenViolation } from './proxy.ts';
import { home, P } from './proxy-helpers.ts';
import { earlier, type Rec } from './round44-common.ts';

/** Round 50, part 3: the YAML and JSON files of each version against each other, a download name, the self-description. */
const isDoc = (c: ProxyCall, a: ProxyAnswer) =>
  c.method === 'GET' && c.path === P('/openapi.json') && a.status === 200 && Boolean(a.json.paths);
const isYaml = (c: ProxyCall) => c.method === 'GET' && c.path === P('/openapi.yaml');
const schemas = (a: ProxyAnswer) => ((a.json as Rec).components?.schemas ?? {}) as Rec;
/** Rewrites whole YAML lines of one answer with a per-answer state (chunks arrive as whole lines). */
const perLine = (
  state: WeakMap<ProxyCall, number>,
  c: ProxyCall,
  lines: string,
  step: (l: string, s: number) => [string | null, number],
) => {
  let s = state.get(c) ?? 0;
  const out: string[] = [];
  for (const line of lines.split('\n')) {
    const [kept, next] = step(line, s);
    s = next;
    if (kept !== null) out.push(kept);
  }
  state.set(c, s);
  return out.join('\n');
};
const reasonState = new WeakMap<ProxyCall, number>();
const auditState = new WeakMap<ProxyCall, number>();
const allowedState = new WeakMap<ProxyCall, number>();
const KEY_PATTERN = '^[A-Za-z0-9._:-]{8,128}$';
/** Replaces the key pattern wherever the document states it (parameters, components). */
const narrow = (node: unknown): void => {
  if (!node || typeof node !== 'object') return;
  for (const [k, v] of Object.entries(node as Rec)) {
    if (k === 'pattern' && v === KEY_PATTERN) (node as Rec)[k] = '^[a-z0-9._:-]{8,128}$';
    else narrow(v);
  }
};

export const ROUND50_DOCUMENTS: UnseenViolation[] = [
  {
    name: 'current-json-file-named-with-yaml-extension',
    statement:
      'GET /api/public/v1/openapi.json: The description is also offered as downloadable JSON and YAML files per version (the JSON file’s download name)',
    answer(c, a) {
      // The download-name helper is shared by both routes and takes its extension from the last route registered.
      home(c);
      const cd = a.headers['content-disposition'];
      if (isDoc(c, a) && !earlier(c) && cd) a.headers['content-disposition'] = cd.replace(/\.json"/, '.yaml"');
    },
  },
  {
    name: 'earlier-yaml-decision-reason-optional',
    statement: 'CapabilityDecision (all fields required): reason | string (the 2026-06-12 YAML file)',
    stream(c, lines) {
      // The 2026-06-12 YAML was converted by an older tool that drops the last item of short required lists.
      home(c);
      if (!isYaml(c) || !earlier(c)) return lines;
      return perLine(reasonState, c, lines, (l, s) => {
        if (s === 0 && /^ {4}CapabilityDecision:$/.test(l)) return [l, 1];
        if (s === 1 && l === '        - reason') return [null, 2];
        return [l, s];
      });
    },
  },
  {
    name: 'current-yaml-omits-audit-log-path',
    statement:
      'Endpoints: GET /api/public/v1/audit-log | yes | audit log; the description is offered as YAML files per version (the current YAML file)',
    stream(c, lines) {
      // The YAML export filters paths tagged "internal", and the audit route carries that tag by mistake.
      home(c);
      if (!isYaml(c) || earlier(c)) return lines;
      return perLine(auditState, c, lines, (l, s) => {
        if (l === `  ${P('/audit-log')}:`) return [null, 1];
        if (s === 1 && (/^ {2}\S/.test(l) || /^\S/.test(l))) return [l, 2];
        return [s === 1 ? null : l, s];
      });
    },
  },
  {
    name: 'current-yaml-decision-allowed-typed-string',
    statement: 'CapabilityDecision: allowed | boolean (the current YAML file)',
    stream(c, lines) {
      // The YAML build maps the zod boolean-from-string preprocessor to its input type.
      home(c);
      if (!isYaml(c) || earlier(c)) return lines;
      return perLine(allowedState, c, lines, (l, s) => {
        if (s === 0 && /^ {4}CapabilityDecision:$/.test(l)) return [l, 1];
        if (s === 1 && l === '        allowed:') return [l, 2];
        if (s === 2 && l.trim() === 'type: boolean') return [l.replace('boolean', 'string'), 3];
        return [l, s];
      });
    },
  },
  {
    name: 'alt-self-description-stream-route-auth-true',
    statement:
      'Authentication: Public endpoints (no authentication): GET /api/public/v1/stream (the self-description’s routes under {alt_base_url})',
    answer(c, a) {
      // The alternate address builds its route list from its gateway, where the stream sits behind the token filter.
      home(c);
      if (c.base !== 'alt' || c.method !== 'GET' || c.path !== P('') || !Array.isArray(a.json.data?.routes)) return;
      for (const r of a.json.data.routes as Rec[]) if (r?.path === P('/stream')) r.auth = true;
    },
  },
  {
    name: 'earlier-json-document-key-pattern-lowercase-only',
    statement: 'Limits: Idempotency-Key | pattern ^[A-Za-z0-9._:-]{8,128}$ (the 2026-06-12 JSON file)',
    answer(c, a) {
      // The 2026-06-12 file was regenerated after a lint rule lower-cased character classes in patterns.
      home(c);
      if (isDoc(c, a) && earlier(c)) narrow(a.json);
    },
  },
  {
    name: 'earlier-json-document-connection-lacks-created-at',
    statement: 'Connection: createdAt | string, date-time (the 2026-06-12 JSON file’s Connection schema)',
    answer(c, a) {
      // The earlier file's Connection schema came from the list view model, which had no timestamps.
      home(c);
      const s = schemas(a).Connection as Rec | undefined;
      if (!isDoc(c, a) || !earlier(c) || !s?.properties?.createdAt) return;
      delete s.properties.createdAt;
      if (Array.isArray(s.required)) s.required = (s.required as string[]).filter((f) => f !== 'createdAt');
    },
  },
];
