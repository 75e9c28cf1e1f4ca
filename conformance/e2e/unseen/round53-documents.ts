import type { ProxyAnswer, ProxyCall, UnseenViolation } from './proxy.ts';
import { home, isCreate, P } from './proxy-helpers.ts';
import { CURRENT, EARLIER, earlier, type Rec } from './round44-common.ts';

/** Round 53, part 3: the JSON document against the YAML file, the self-description and the served routes; error meta. */
const isDoc = (c: ProxyCall, a: ProxyAnswer) =>
  c.method === 'GET' && c.path === P('/openapi.json') && a.status === 200 && Boolean(a.json.paths);
const isYaml = (c: ProxyCall) => c.method === 'GET' && c.path === P('/openapi.yaml');
const isSelf = (c: ProxyCall) => c.method === 'GET' && c.path === P('');
const asked = (c: ProxyCall) => c.search.get('version') ?? c.headers['service-version'];

export const ROUND53_DOCUMENTS: UnseenViolation[] = [
  {
    name: 'openapi-connections-path-lacks-list-operation',
    statement:
      'GET /api/public/v1/openapi.json: Returns the machine-readable description of this interface; Endpoints: GET /api/public/v1/connections (the path that also serves creation)',
    answer(c, a) {
      // The generator merges operations per path and the later POST registration overwrote the GET one.
      home(c);
      const item = isDoc(c, a) ? (a.json.paths as Rec)[P('/connections')] : undefined;
      if (item && typeof item === 'object') delete item.get;
    },
  },
  {
    name: 'explicit-current-version-openapi-lacks-redelivery',
    statement:
      'Versioning: Changes of 2026-07-01: the endpoint reference is generated from the published description; a delivery log for webhooks was added (deliveries can be viewed and triggered again) (the document asked for 2026-07-01 by name)',
    answer(c, a) {
      // An explicitly named version is served from the release archive, which was frozen before the delivery routes merged.
      home(c);
      if (!isDoc(c, a) || asked(c) !== CURRENT) return;
      for (const path of Object.keys(a.json.paths as Rec))
        if (/\/deliveries/.test(path)) delete (a.json.paths as Rec)[path];
    },
  },
  {
    name: 'yaml-key-pattern-narrower-than-json',
    statement:
      'Limits: Idempotency-Key | pattern ^[A-Za-z0-9._:-]{8,128}$; GET /openapi.json: also offered as downloadable JSON and YAML files (the YAML file)',
    stream(c, lines) {
      // The YAML export runs through a template that still carries the pre-release key rule of up to 64 characters.
      home(c);
      if (!isYaml(c)) return lines;
      return lines.replaceAll('{8,128}', '{8,64}');
    },
  },
  {
    name: 'earlier-self-description-lacks-stream-route',
    statement:
      'GET /api/public/v1: data: routes (array of RouteInfo); Endpoints: GET /api/public/v1/stream | public (the self-description asked for 2026-06-12)',
    answer(c, a) {
      // The 2026-06-12 route table is read from a config file that listed the stream under a separate events service.
      home(c);
      if (!isSelf(c) || !earlier(c) || !Array.isArray(a.json.data?.routes)) return;
      a.json.data.routes = (a.json.data.routes as Rec[]).filter((r) => r?.path !== P('/stream'));
    },
  },
  {
    name: 'openapi-failure-meta-request-id-optional',
    statement:
      'Failure envelope: meta | Meta | yes; Meta: requestId | string | yes (the failure envelope as the JSON document describes it)',
    answer(c, a) {
      // The error schema got its own inline meta copy during a refactor, and requestId was left out of its required list.
      home(c);
      const f = isDoc(c, a) ? (a.json.components as Rec | undefined)?.schemas?.FailureEnvelope : undefined;
      if (!f?.properties) return;
      f.properties.meta = {
        type: 'object',
        properties: {
          requestId: { type: 'string' },
          version: { type: 'string', enum: [CURRENT, EARLIER] },
          at: { type: 'string', format: 'date-time' },
        },
        required: ['version', 'at'],
      };
    },
  },
  {
    name: 'conflict-meta-request-id-of-original-creation',
    statement:
      'Meta: requestId | identifier of this call; Errors: They contain the request identifier (meta.requestId) (an idempotency_conflict answer)',
    answer(c, a) {
      // The conflict answer is built from the stored original response, and its meta is copied along with the key.
      home(c);
      const key = c.headers['idempotency-key'];
      if (!isCreate(c) || !key) return;
      if (a.status === 200 && a.json.meta?.replayed !== true) c.memory.set(`r53-orig:${key}`, a.json.meta?.requestId);
      const orig = c.memory.get(`r53-orig:${key}`);
      if (
        a.status === 409 &&
        a.json.error?.code === 'idempotency_conflict' &&
        a.json.meta &&
        typeof orig === 'string'
      ) {
        a.json.meta.requestId = orig;
        a.headers['x-request-id'] = orig;
      }
    },
  },
  {
    name: 'openapi-stream-security-drops-anonymous-option',
    statement:
      'Authentication: Public endpoints (no authentication): GET /api/public/v1/stream (the stream operation in the JSON document)',
    answer(c, a) {
      // A lint fix "remove empty security requirement objects" stripped the {} that marked the stream as public.
      home(c);
      const op = isDoc(c, a) ? (a.json.paths as Rec)[P('/stream')]?.get : undefined;
      if (op && Array.isArray(op.security)) op.security = (op.security as Rec[]).filter((s) => Object.keys(s).length);
    },
  },
];
