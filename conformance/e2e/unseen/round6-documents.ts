import type { ProxyAnswer, UnseenViolation } from './proxy.ts';
import { P } from './proxy-helpers.ts';

/**
 * Round 6 of the unseen violations, part 1: what the interface says about itself — the OpenAPI
 * document's paths, security, enumerations, header parameters and required fields, the self-description's routes —
 * and answer fields slightly off in form or value on one endpoint.
 */
const isOpenApi = (c: { method: string; path: string }) => c.method === 'GET' && c.path === P('/openapi.json');
const isSelf = (c: { method: string; path: string }) => c.method === 'GET' && c.path === P('');

/** Every object inside a JSON value (the document's schemas and parameters sit at any depth). */
function eachObject(v: unknown, visit: (o: Record<string, unknown>) => void) {
  if (Array.isArray(v)) for (const x of v) eachObject(x, visit);
  else if (v && typeof v === 'object') {
    visit(v as Record<string, unknown>);
    for (const x of Object.values(v)) eachObject(x, visit);
  }
}
/** The OpenAPI document, bare or inside a success envelope. */
const doc = (json: ProxyAnswer['json']) => (json.paths ? json : json.data?.paths ? json.data : undefined);
const routes = (json: ProxyAnswer['json']): Record<string, unknown>[] =>
  Array.isArray(json.data?.routes) ? json.data.routes : [];

export const ROUND6_DOCUMENTS: UnseenViolation[] = [
  {
    name: 'meta-at-without-offset-on-connections',
    statement: 'Meta: at | string, date-time | yes — on GET /connections too (a date-time carries its offset)',
    answer(c, a) {
      // The list handler formats its own timestamp from a local-time formatter that drops the zone.
      if (c.method === 'GET' && c.path === P('/connections') && typeof a.json.meta?.at === 'string')
        a.json.meta.at = a.json.meta.at.replace(/(\.\d+)?(Z|[+-]\d\d:\d\d)$/, '');
    },
  },
  {
    name: 'key-result-operation-renamed',
    statement: 'POST /idempotency-keys: data: operation (string) — the operation the key was generated for',
    answer(c, a) {
      // The operation is answered as the internal enum it was mapped to, not as the caller named it.
      const d = a.json.data;
      if (
        c.method === 'POST' &&
        c.path === P('/idempotency-keys') &&
        a.status === 200 &&
        typeof d?.operation === 'string'
      )
        d.operation = d.operation.replace(/[^A-Za-z0-9]+/g, '_').toUpperCase();
    },
  },
  {
    name: 'openapi-omits-stream',
    statement:
      'GET /openapi.json: the machine-readable description of this interface (the endpoint table: GET /stream too)',
    answer(c, a) {
      // The generator only walks JSON routes; the Server-Sent Events route has no response schema and is skipped.
      const d = isOpenApi(c) ? doc(a.json) : undefined;
      if (d?.paths) delete d.paths[P('/stream')];
    },
  },
  {
    name: 'openapi-check-marked-public',
    statement: 'Endpoints: POST /api/public/v1/capabilities | yes (authenticated) — as the OpenAPI description says',
    answer(c, a) {
      // The check shares a path with the public-looking catalog read, and the generator copied its security.
      const op = isOpenApi(c) ? doc(a.json)?.paths?.[P('/capabilities')]?.post : undefined;
      if (op) op.security = [];
    },
  },
  {
    name: 'openapi-environment-without-pilot',
    statement: 'Environment (enumeration): development, sandbox, pilot, production — in the OpenAPI description too',
    answer(c, a) {
      // The document was generated before pilot was added to the enumeration and never regenerated.
      if (!isOpenApi(c)) return;
      eachObject(doc(a.json), (o) => {
        if (Array.isArray(o.enum) && o.enum.includes('pilot') && o.enum.includes('sandbox'))
          o.enum = o.enum.filter((x) => x !== 'pilot');
      });
    },
  },
  {
    name: 'openapi-key-header-optional',
    statement: 'POST /connections: Header Idempotency-Key is required — in the OpenAPI description too',
    answer(c, a) {
      // A shared parameter definition marks the key optional for every operation, the required ones too.
      if (!isOpenApi(c)) return;
      eachObject(doc(a.json), (o) => {
        if (o.in === 'header' && typeof o.name === 'string' && o.name.toLowerCase() === 'idempotency-key')
          o.required = false;
      });
    },
  },
  {
    name: 'openapi-decision-fields-optional',
    statement: 'CapabilityDecision (all fields required) — as the OpenAPI description documents it',
    answer(c, a) {
      // The generator marks as required only the fields every code path sets before the reason is worked out.
      const schemas = isOpenApi(c) ? doc(a.json)?.components?.schemas : undefined;
      const decision = schemas?.CapabilityDecision;
      if (decision && Array.isArray(decision.required))
        decision.required = decision.required.filter((f: string) =>
          ['connectorId', 'capability', 'allowed'].includes(f),
        );
    },
  },
  {
    name: 'openapi-connections-list-requires-page',
    statement: 'GET /api/public/v1/connections: No parameters — the OpenAPI description invents no required one',
    answer(c, a) {
      // A paging parameter planned for a later version leaked into the current document, marked required.
      const op = isOpenApi(c) ? doc(a.json)?.paths?.[P('/connections')]?.get : undefined;
      if (!op) return;
      const page = { name: 'page', in: 'query', required: true, schema: { type: 'integer', minimum: 1 } };
      op.parameters = [...(Array.isArray(op.parameters) ? op.parameters : []), page];
    },
  },
  {
    name: 'self-description-stream-needs-auth',
    statement:
      'Authentication: public endpoints: GET /api/public/v1/stream (RouteInfo auth: false in the self-description)',
    answer(c, a) {
      // Every route but the two discovery documents is described as authenticated.
      if (!isSelf(c)) return;
      for (const r of routes(a.json)) if (r.path === P('/stream')) r.auth = true;
    },
  },
  {
    name: 'self-description-check-as-get',
    statement: 'GET /api/public/v1: data: routes (array of RouteInfo) — POST /capabilities described with its method',
    answer(c, a) {
      // Routes are keyed by path in the registry, so the second method of /capabilities is written as the first.
      if (!isSelf(c)) return;
      for (const r of routes(a.json)) if (r.path === P('/capabilities') && r.method === 'POST') r.method = 'GET';
    },
  },
];
