import { openApiYaml } from '../../../simulator/contract/openapi-yaml.ts';
import type { ProxyAnswer, ProxyCall, UnseenViolation } from './proxy.ts';
import { P } from './proxy-helpers.ts';

/**
 * Round 26 of the unseen violations, part 4: the OpenAPI document and the self-description — the
 * creation body documented with the Connection schema, the key header optional in the alternate
 * address's document only, the tenant header left off the writes, Last-Event-ID required, a required
 * list naming a field twice, X-RateLimit-Remaining with minimum 1, the earlier version's document
 * listing the delivery log, 409 and 428 documented with each other's codes, a stale enumeration of
 * provider categories, event names of at least 11 characters, and a self-description that hides the
 * public routes from a caller presenting a token.
 */
type Rec = Record<string, any>;
const isDoc = (c: ProxyCall) => c.method === 'GET' && c.path === P('/openapi.json');
const versionOf = (c: ProxyCall) => c.search.get('version') ?? c.headers['service-version'] ?? '2026-07-01';
/** A document violation; the YAML download of the same version and address is served from the edited JSON. */
const documentEdit = (edit: (doc: Rec, c: ProxyCall) => void): Pick<UnseenViolation, 'request' | 'answer'> => ({
  request(c) {
    if (c.method !== 'GET' || c.path !== P('/openapi.yaml')) return undefined;
    const doc = c.memory.get(`r26-doc:${c.base}:${versionOf(c)}`) as Rec | undefined;
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
    edit(a.json, c);
    c.memory.set(`r26-doc:${c.base}:${versionOf(c)}`, structuredClone(a.json));
  },
});
const schema = (doc: Rec, name: string) => doc?.components?.schemas?.[name] as Rec | undefined;
const op = (doc: Rec, path: string, method: string) => doc?.paths?.[P(path)]?.[method] as Rec | undefined;
const operations = (doc: Rec) =>
  Object.values((doc?.paths ?? {}) as Rec).flatMap((item) =>
    ['get', 'post', 'put', 'patch', 'delete'].flatMap((m) => (item?.[m] ? [[m, item[m] as Rec] as const] : [])),
  );
/** The failure envelope with error.code narrowed to `codes`. */
const failureWith = (doc: Rec, codes: string[]) => {
  const env = structuredClone(schema(doc, 'FailureEnvelope') ?? {});
  if (env.properties?.error?.properties?.code) env.properties.error.properties.code.enum = codes;
  return env;
};

export const ROUND26_DOCUMENTS: UnseenViolation[] = [
  {
    name: 'openapi-create-body-refs-connection-schema',
    statement:
      'POST /api/public/v1/connections: Body (JSON), all fields required: connectorId, environment, scopeLabel, capabilities (array of string)',
    // The generator picks the schema by resource name, so the creation body gets the answer's schema
    // (capabilities as objects, id, state, nextStep and createdAt required).
    ...documentEdit((doc) => {
      const body = op(doc, '/connections', 'post')?.requestBody?.content?.['application/json'];
      if (body) body.schema = { $ref: '#/components/schemas/Connection' };
    }),
  },
  {
    name: 'alt-openapi-key-header-optional',
    statement:
      'Header Idempotency-Key is required (POST /connections); The same interface is also offered under a second main-domain address {alt_base_url}',
    // The alternate address serves a document generated from the 2026-06-12 route table, where the key
    // was still optional; the main address's document is right.
    ...documentEdit((doc, c) => {
      if (c.base !== 'alt') return;
      for (const path of ['/connections', '/webhooks'])
        for (const p of (op(doc, path, 'post')?.parameters ?? []) as Rec[])
          if (String(p.name).toLowerCase() === 'idempotency-key') p.required = false;
    }),
  },
  {
    name: 'openapi-tenant-header-omitted-on-writes',
    statement:
      'Authentication: Required on every authenticated call: x-service-tenant — identifier of the tenant for which the call applies',
    // The tenant header is added by a "read" decorator only; the POST operations are documented without it.
    ...documentEdit((doc) => {
      for (const [method, o] of operations(doc))
        if (method === 'post' && Array.isArray(o.parameters))
          o.parameters = (o.parameters as Rec[]).filter((p) => String(p.name).toLowerCase() !== 'x-service-tenant');
    }),
  },
  {
    name: 'openapi-stream-last-event-id-required',
    statement: 'GET /api/public/v1/stream: Last-Event-ID — header, string, Required: no (last number read)',
    ...documentEdit((doc) => {
      // The header parameter is declared from the resume handler's type, where it is not optional.
      for (const p of (op(doc, '/stream', 'get')?.parameters ?? []) as Rec[])
        if (String(p.name).toLowerCase() === 'last-event-id') p.required = true;
    }),
  },
  {
    name: 'openapi-required-list-repeats-field',
    statement:
      'GET /api/public/v1/openapi.json: Returns the machine-readable description of this interface as a JSON object (OpenAPI 3.1)',
    ...documentEdit((doc) => {
      // Merging the base schema's required list with the operation's appends without de-duplicating;
      // JSON Schema 2020-12 requires the items of "required" to be unique.
      for (const name of ['CreateConnectionRequest', 'CapabilityCheckRequest', 'Connection']) {
        const s = schema(doc, name);
        if (Array.isArray(s?.required) && s.required.length) s.required = [...s.required, s.required[0]];
      }
    }),
  },
  {
    name: 'openapi-remaining-header-minimum-one',
    statement: 'Limits: X-RateLimit-Remaining (calls left in the window)',
    ...documentEdit((doc) => {
      // The header schema reuses the "positive count" type, which cannot say that no call is left.
      const h = doc?.components?.headers?.['X-RateLimit-Remaining']?.schema;
      if (h) h.minimum = 1;
    }),
  },
  {
    name: 'earlier-version-document-lists-delivery-log',
    statement:
      'Versioning: Changes of 2026-07-01: ... a delivery log for webhooks was added. (GET /openapi.json: The description is also offered as downloadable JSON and YAML files per version.)',
    ...documentEdit((doc, c) => {
      // Path items are not filtered by the version that introduced them: the 2026-06-12 download lists
      // the delivery log of 2026-07-01.
      const current = versionOf(c) === '2026-07-01';
      const paths = (doc?.paths ?? {}) as Rec;
      const log = Object.keys(paths).filter((p) => p.includes('/deliveries'));
      if (current) {
        c.memory.set('r26-delivery-paths', Object.fromEntries(log.map((p) => [p, structuredClone(paths[p])])));
        return;
      }
      if (!doc?.paths) return;
      const stored = c.memory.get('r26-delivery-paths') as Rec | undefined;
      Object.assign(
        doc.paths,
        stored ?? {
          [P('/webhooks/{webhookId}/deliveries')]: {
            get: {
              operationId: 'listWebhookDeliveries',
              parameters: [{ name: 'webhookId', in: 'path', required: true, schema: { type: 'string' } }],
              responses: { 200: { description: 'Success envelope' } },
            },
          },
        },
      );
    }),
  },
  {
    name: 'openapi-409-and-428-codes-swapped',
    statement:
      'Errors: idempotency_conflict — 409; idempotency_required — 428 (Failure envelope: error.code one of the codes in the Errors part)',
    ...documentEdit((doc) => {
      // A copy-paste in the response table pairs each status with the other one's codes.
      const responses = op(doc, '/connections', 'post')?.responses as Rec | undefined;
      if (!responses?.['409'] || !responses['428']) return;
      responses['409'].content = { 'application/json': { schema: failureWith(doc, ['idempotency_required']) } };
      responses['428'].content = {
        'application/json': { schema: failureWith(doc, ['idempotency_conflict', 'capability_denied']) },
      };
    }),
  },
  {
    name: 'openapi-provider-category-enum-stale',
    statement: 'GET /api/public/v1/providers: category — string, not required: restricts to one category',
    ...documentEdit((doc) => {
      // The filter is documented with the categories of the launch catalog; later categories are missing.
      for (const p of (op(doc, '/providers', 'get')?.parameters ?? []) as Rec[])
        if (p.name === 'category' && p.schema) p.schema.enum = ['payments', 'delivery'];
    }),
  },
  {
    name: 'openapi-webhook-event-names-min-length-eleven',
    statement: 'Webhooks: a url and a list of event names. Sample event names: order.created, order.paid',
    ...documentEdit((doc) => {
      // The event-name type was given the length rule of topic names ("tenant.resource.event").
      const items = schema(doc, 'CreateWebhookRequest')?.properties?.events?.items;
      if (items) items.minLength = 11;
    }),
  },
  {
    name: 'self-description-hides-public-routes-from-token-holders',
    statement:
      'What the service does: The interface describes itself (a self-description endpoint). GET /api/public/v1: data: ... routes (array of RouteInfo: method, path, purpose, auth)',
    answer(c, a) {
      // A caller presenting a token gets the routes "relevant to the access": the public ones are dropped.
      if (c.method !== 'GET' || c.path !== P('') || a.status !== 200 || !c.headers.authorization) return;
      const routes = a.json.data?.routes;
      if (Array.isArray(routes)) a.json.data.routes = (routes as Rec[]).filter((r) => r.auth !== false);
    },
  },
];
