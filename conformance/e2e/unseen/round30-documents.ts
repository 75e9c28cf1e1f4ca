import type { ProxyAnswer, ProxyCall, UnseenViolation } from './proxy.ts';
import { P } from './proxy-helpers.ts';

/**
 * Round 30 of the unseen violations, part 3: the OpenAPI document and the self-description — a
 * decision requiring a policyId no answer carries, meta.requestId documented as a UUID, the created
 * connection referenced from an external file, GET /connectors documented as public, meta.at documented
 * as a date, capability items of a creation documented with a minimum of 3, the stream cursor documented
 * as required, a null entry in the self-description's routes, and connection creation described as public.
 */
type Rec = Record<string, any>;
const isDoc = (c: ProxyCall, a: ProxyAnswer) =>
  c.method === 'GET' && c.path === P('/openapi.json') && a.status === 200 && Boolean(a.json.paths);
const isSelf = (c: ProxyCall, a: ProxyAnswer) =>
  c.method === 'GET' && c.path === P('') && a.status === 200 && Array.isArray(a.json.data?.routes);
const schemaOf = (doc: Rec, name: string) => doc.components?.schemas?.[name] as Rec | undefined;

export const ROUND30_DOCUMENTS: UnseenViolation[] = [
  {
    name: 'openapi-decision-requires-undelivered-policy-id',
    statement:
      'CapabilityDecision (all fields required): connectorId, capability, allowed, critical, idempotencyRequired, reason',
    answer(c, a) {
      // The schema was generated from the internal decision type, which carries the policy row's id; the
      // public answer strips it, the document still requires it.
      const s = isDoc(c, a) ? schemaOf(a.json, 'CapabilityDecision') : undefined;
      if (!s?.properties || !Array.isArray(s.required)) return;
      s.properties.policyId = { type: 'string' };
      s.required = [...s.required, 'policyId'];
    },
  },
  {
    name: 'openapi-meta-request-id-format-uuid',
    statement: 'Meta: requestId — string (identifier of this call); the OpenAPI 3.1 document describes this interface',
    answer(c, a) {
      // A request-id plugin documented its UUID default; the deployment issues req_… identifiers.
      const s = isDoc(c, a) ? schemaOf(a.json, 'Meta') : undefined;
      if (s?.properties?.requestId) s.properties.requestId.format = 'uuid';
    },
  },
  {
    name: 'openapi-created-connection-external-ref',
    statement:
      'GET /api/public/v1/openapi.json: Returns the machine-readable description of this interface as a JSON object (OpenAPI 3.1)',
    answer(c, a) {
      // The creation answer was split into a shared file during a refactoring; the bundler missed it.
      if (!isDoc(c, a)) return;
      const schema = (a.json.paths as Rec)[P('/connections')]?.post?.responses?.['200']?.content?.['application/json']
        ?.schema as Rec | undefined;
      if (schema?.properties?.data) schema.properties.data = { $ref: './schemas/connection.json#/Connection' };
    },
  },
  {
    name: 'openapi-connectors-documented-public',
    statement:
      'Endpoints: GET /api/public/v1/connectors — Auth: yes (Public endpoints: only the self-description, openapi.json, stream)',
    answer(c, a) {
      // The catalog routes were tagged public for a marketing site preview; only providers was reverted.
      const op = isDoc(c, a) ? (a.json.paths as Rec)[P('/connectors')]?.get : undefined;
      if (op) op.security = [];
    },
  },
  {
    name: 'openapi-meta-at-format-date',
    statement: 'Meta: at — string, date-time, required',
    answer(c, a) {
      // The meta schema's time field was declared with the date helper of the schema builder.
      const s = isDoc(c, a) ? schemaOf(a.json, 'Meta') : undefined;
      if (s?.properties?.at) s.properties.at.format = 'date';
    },
  },
  {
    name: 'openapi-create-capability-items-min-length-3',
    statement:
      'POST /api/public/v1/connections: capabilities — array of string, 1 to 24 items, each of length 2 to 120',
    answer(c, a) {
      // The item schema was shared with a search box that needs three characters.
      const s = isDoc(c, a) ? schemaOf(a.json, 'CreateConnectionRequest') : undefined;
      const items = s?.properties?.capabilities?.items as Rec | undefined;
      if (items && typeof items.minLength === 'number') items.minLength = 3;
    },
  },
  {
    name: 'openapi-stream-cursor-required',
    statement: 'GET /api/public/v1/stream: cursor — query, integer, minimum 0, Required: no',
    answer(c, a) {
      // The parameter was marked required when resumption was the only documented use.
      if (!isDoc(c, a)) return;
      for (const p of ((a.json.paths as Rec)[P('/stream')]?.get?.parameters as Rec[] | undefined) ?? [])
        if (p?.name === 'cursor') p.required = true;
    },
  },
  {
    name: 'self-description-routes-null-entry',
    statement: 'GET /api/public/v1: data: … routes (array of RouteInfo)',
    answer(c, a) {
      // A feature-flagged route is rendered as null when its flag is off.
      if (isSelf(c, a)) (a.json.data.routes as unknown[]).splice(3, 0, null);
    },
  },
  {
    name: 'self-description-connection-creation-public',
    statement: 'Endpoints: POST /api/public/v1/connections — Auth: yes + key (RouteInfo: auth — boolean)',
    answer(c, a) {
      // The route table takes the auth flag from an allow-list of public paths that matched on the path
      // alone, so the creation inherited the flag of a public preview of the list.
      if (!isSelf(c, a)) return;
      for (const r of a.json.data.routes as Rec[])
        if (r?.method === 'POST' && r.path === P('/connections')) r.auth = false;
    },
  },
];
