import { openApiYaml } from '../../../simulator/contract/openapi-yaml.ts';
import type { ProxyAnswer, ProxyCall, UnseenViolation } from './proxy.ts';
import { P } from './proxy-helpers.ts';

/**
 * Round 20 of the unseen violations, part 3: the OpenAPI document and the self-description — the audit
 * log documented as public, the key request's operation documented as a one-value enumeration, the
 * failure's error object closed without hint, the check's environment documented as a query parameter,
 * the webhook body's events documented as one string, list counts documented with minimum 1, and the
 * stream's route entry without a purpose.
 */
type Rec = Record<string, any>;
const isSelf = (c: ProxyCall) => c.method === 'GET' && c.path === P('');
const isDoc = (c: ProxyCall) => c.method === 'GET' && c.path === P('/openapi.json');
const versionOf = (c: ProxyCall) => c.search.get('version') ?? c.headers['service-version'] ?? '2026-07-01';
/** A document violation: the YAML download of the same version and address is served from the edited JSON. */
const documentEdit = (edit: (doc: Rec) => void): Pick<UnseenViolation, 'request' | 'answer'> => ({
  request(c) {
    if (c.method !== 'GET' || c.path !== P('/openapi.yaml')) return undefined;
    const doc = c.memory.get(`r20-doc:${c.base}:${versionOf(c)}`) as Rec | undefined;
    if (!doc) return undefined;
    return {
      status: 200,
      headers: { 'content-type': 'application/yaml; charset=utf-8', 'x-content-type-options': 'nosniff' },
      json: {},
      raw: openApiYaml(doc),
    };
  },
  answer(c, a: ProxyAnswer) {
    if (!isDoc(c) || a.status !== 200) return;
    edit(a.json);
    c.memory.set(`r20-doc:${c.base}:${versionOf(c)}`, structuredClone(a.json));
  },
});
const paths = (doc: Rec) => (doc && typeof doc.paths === 'object' ? (doc.paths as Rec) : {});
const op = (doc: Rec, tail: string, method: string) => paths(doc)[P(tail)]?.[method] as Rec | undefined;
const schemas = (doc: Rec) => (doc?.components?.schemas ?? {}) as Rec;
const dataOf = (o: Rec | undefined) =>
  o?.responses?.['200']?.content?.['application/json']?.schema?.properties?.data as Rec | undefined;

export const ROUND20_DOCUMENTS: UnseenViolation[] = [
  {
    name: 'openapi-audit-log-documented-public',
    statement:
      'Endpoints: GET /api/public/v1/audit-log | yes (auth) — Public endpoints (no authentication): GET /api/public/v1, GET /api/public/v1/openapi.json, GET /api/public/v1/stream',
    ...documentEdit((doc) => {
      // The audit route was registered with the public route group's security override.
      const o = op(doc, '/audit-log', 'get');
      if (o) o.security = [];
    }),
  },
  {
    name: 'openapi-key-operation-single-value-enum',
    statement:
      'POST /api/public/v1/idempotency-keys: operation (string, required, length 2 to 80; short name of the operation, e.g. connection.create)',
    ...documentEdit((doc) => {
      // The generator turned the example operation into the only allowed value.
      const s = schemas(doc).CreateIdempotencyKeyRequest?.properties?.operation as Rec | undefined;
      if (s) s.enum = ['connection.create'];
    }),
  },
  {
    name: 'openapi-failure-error-closed-without-hint',
    statement: 'Failure envelope (every error response): error.hint | string | no',
    ...documentEdit((doc) => {
      // The error object schema was tightened to "no extra properties" from an older version without hint.
      const e = schemas(doc).FailureEnvelope?.properties?.error as Rec | undefined;
      if (!e?.properties) return;
      delete e.properties.hint;
      e.additionalProperties = false;
    }),
  },
  {
    name: 'openapi-check-environment-in-query',
    statement:
      'POST /api/public/v1/capabilities: Body (JSON): connectorId, capability, environment (no; Environment; default sandbox)',
    ...documentEdit((doc) => {
      // The annotation of the environment field was taken from a GET handler and moved it to the query.
      const o = op(doc, '/capabilities', 'post');
      const body = schemas(doc).CapabilityCheckRequest as Rec | undefined;
      if (!o || !body?.properties?.environment) return;
      const env = body.properties.environment;
      delete body.properties.environment;
      if (Array.isArray(body.required)) body.required = body.required.filter((r: string) => r !== 'environment');
      o.parameters = [
        ...((o.parameters as Rec[]) ?? []),
        { name: 'environment', in: 'query', required: false, schema: env },
      ];
    }),
  },
  {
    name: 'openapi-webhook-events-as-string',
    statement:
      'POST /api/public/v1/webhooks: Body: url (string, the receiver address), events (array of event-name strings)',
    ...documentEdit((doc) => {
      // The request schema was written from a form-encoded prototype that sent a comma-separated list.
      const s = schemas(doc).CreateWebhookRequest?.properties as Rec | undefined;
      if (s?.events) s.events = { type: 'string', description: 'comma-separated event names' };
    }),
  },
  {
    name: 'openapi-list-counts-minimum-one',
    statement:
      'GET /api/public/v1/connections: data: tenant (string), count (integer), connections (array of Connection) — a tenant without connections counts 0',
    ...documentEdit((doc) => {
      // A shared "count" component with minimum 1 (from the paging helper) was reused for every list.
      for (const tail of ['/providers', '/connectors', '/capabilities', '/connections']) {
        const count = dataOf(op(doc, tail, 'get'))?.properties?.count as Rec | undefined;
        if (count) count.minimum = 1;
      }
    }),
  },
  {
    name: 'self-description-stream-route-without-purpose',
    statement: 'GET /api/public/v1: routes (array of RouteInfo) — RouteInfo: method, path, purpose (string), auth',
    answer(c, a) {
      // The stream route is registered by a plugin that sets no description, and the purpose is skipped.
      const routes = a.json.data?.routes as Rec[] | undefined;
      if (!isSelf(c) || a.status !== 200 || !Array.isArray(routes)) return;
      for (const r of routes) if (r?.path === P('/stream')) delete r.purpose;
    },
  },
];
