import type { ProxyAnswer, ProxyCall, UnseenViolation } from './proxy.ts';
import { P } from './proxy-helpers.ts';

/**
 * Round 8 of the unseen violations, part 1: the published description — an operationId used twice,
 * a count documented as text, the key pattern without its anchors, the YAML download missing an
 * environment, the alternate address describing paths without the base, the stream documented as
 * JSON, and a server address that names a cluster-internal host.
 */
const isOpenApi = (c: ProxyCall) => c.method === 'GET' && c.path === P('/openapi.json');
/** The OpenAPI document, bare or inside a success envelope. */
const doc = (json: ProxyAnswer['json']) => (json.paths ? json : json.data?.paths ? json.data : undefined);

/** Every object inside a JSON value (parameters and schemas sit at any depth). */
function eachObject(v: unknown, visit: (o: Record<string, unknown>) => void) {
  if (Array.isArray(v)) for (const x of v) eachObject(x, visit);
  else if (v && typeof v === 'object') {
    visit(v as Record<string, unknown>);
    for (const x of Object.values(v)) eachObject(x, visit);
  }
}

export const ROUND8_DOCUMENTS: UnseenViolation[] = [
  {
    name: 'openapi-duplicate-operation-id',
    statement:
      'What the service does: the interface ... publishes an OpenAPI 3.1 description (OpenAPI 3.1: operationId unique among all operations)',
    answer(c, a) {
      // GET and POST /capabilities share one handler class, and the generator names operations after the class.
      const ops = isOpenApi(c) ? doc(a.json)?.paths?.[P('/capabilities')] : undefined;
      if (ops?.get?.operationId && ops.post) ops.post.operationId = ops.get.operationId;
    },
  },
  {
    name: 'openapi-connections-count-as-string',
    statement:
      'GET /api/public/v1/connections: data: tenant (string), count (integer) — as the machine-readable description of this interface documents it',
    answer(c, a) {
      // The list schema was written by hand for a database driver that returned COUNT(*) as text.
      const ok = isOpenApi(c) ? doc(a.json)?.paths?.[P('/connections')]?.get?.responses?.['200'] : undefined;
      const data = ok?.content?.['application/json']?.schema?.properties?.data;
      if (data?.properties?.count) data.properties.count = { type: 'string', description: 'Number of connections' };
    },
  },
  {
    name: 'openapi-key-pattern-unanchored',
    statement:
      'Limits: Idempotency-Key | pattern ^[A-Za-z0-9._:-]{8,128}$ — the published description states it without its anchors, so any text holding eight such characters matches',
    answer(c, a) {
      // The pattern was copied from a regex literal of the validator, which adds the anchors itself.
      if (!isOpenApi(c)) return;
      eachObject(doc(a.json), (o) => {
        if (typeof o.pattern === 'string' && o.pattern.startsWith('^[A-Za-z0-9._:-]'))
          o.pattern = o.pattern.replace(/^\^/, '').replace(/\$$/, '');
      });
    },
  },
  {
    name: 'openapi-yaml-drops-production',
    statement:
      'GET /api/public/v1/openapi.json: the description is also offered as downloadable JSON and YAML files per version (Environment: development, sandbox, pilot, production)',
    stream(c, lines) {
      // The YAML file is rendered from a template kept by hand, whose enumerations predate production.
      if (c.method !== 'GET' || c.path !== P('/openapi.yaml')) return lines;
      return lines.replace(/^[ \t]+- production\r?\n/gm, '');
    },
  },
  {
    name: 'alt-openapi-paths-unprefixed',
    statement:
      'Network Connections Service Interface: all paths start with /api/public/v1 (the same interface under {alt_base_url}, its description too)',
    answer(c, a) {
      // The alternate gateway strips its mount point from the document it forwards, servers left at "/".
      const d = isOpenApi(c) && c.base === 'alt' ? doc(a.json) : undefined;
      if (!d?.paths) return;
      d.paths = Object.fromEntries(
        Object.entries(d.paths as Record<string, unknown>).map(([path, item]) => [
          path.replace(P(''), '') || '/',
          item,
        ]),
      );
    },
  },
  {
    name: 'openapi-stream-documented-as-json',
    statement:
      'GET /api/public/v1/stream: Response: content type text/event-stream — as the machine-readable description says',
    answer(c, a) {
      // Every route gets the generator's default JSON response, the event stream too.
      const ok = isOpenApi(c) ? doc(a.json)?.paths?.[P('/stream')]?.get?.responses?.['200'] : undefined;
      if (ok?.content) ok.content = { 'application/json': { schema: { type: 'object' } } };
    },
  },
  {
    name: 'openapi-servers-cluster-host',
    statement:
      'Network Connections Service Interface: base address {base_url} (Errors: no internal details — the published description names a cluster-internal host as its server)',
    answer(c, a) {
      // The generator runs inside the cluster and fills servers from the host it was reached at.
      const d = isOpenApi(c) ? doc(a.json) : undefined;
      if (d) d.servers = [{ url: 'http://ncs-public-api.ncs-prod.svc.cluster.local:8080' }];
    },
  },
];
