import type { ProxyAnswer, ProxyCall, UnseenViolation } from './proxy.ts';
import { P } from './proxy-helpers.ts';

/**
 * Round 31 of the unseen violations, part 3: the OpenAPI document — the creation's list bounds moved
 * onto its items, the capability check documented as needing an Idempotency-Key, the connector's
 * providerId documented as provider_id, meta.at typed integer, nextStep typed object, the check request
 * closed without its environment, the list's tenant typed integer, meta.replayed required, key
 * issuance documented without a request body, and the stream cursor typed number.
 */
type Rec = Record<string, any>;
const isDoc = (c: ProxyCall, a: ProxyAnswer) =>
  c.method === 'GET' && c.path === P('/openapi.json') && a.status === 200 && Boolean(a.json.paths);
const schemaOf = (doc: Rec, name: string) => doc.components?.schemas?.[name] as Rec | undefined;
const op = (doc: Rec, tail: string, method: string) => (doc.paths as Rec)?.[P(tail)]?.[method] as Rec | undefined;

export const ROUND31_DOCUMENTS: UnseenViolation[] = [
  {
    name: 'openapi-create-capabilities-bounds-on-items',
    statement:
      'POST /api/public/v1/connections: capabilities — array of string, 1 to 24 items (in the published description)',
    answer(c, a) {
      // A schema builder applied .min(1).max(24) to the element instead of the array: the list is
      // unbounded and each string needs 1 to 24 characters.
      const s = isDoc(c, a) ? schemaOf(a.json, 'CreateConnectionRequest')?.properties?.capabilities : undefined;
      if (!s || typeof s.maxItems !== 'number') return;
      s.items = { ...(s.items ?? {}), minLength: s.minItems ?? 1, maxLength: s.maxItems };
      delete s.minItems;
      delete s.maxItems;
    },
  },
  {
    name: 'openapi-check-requires-key-header',
    statement:
      'Endpoints: POST /api/public/v1/capabilities — Auth: yes (not "yes + key"; only modifying calls need an Idempotency-Key)',
    answer(c, a) {
      // Every POST got the Idempotency-Key parameter from a shared decorator, the check included.
      const o = isDoc(c, a) ? op(a.json, '/capabilities', 'post') : undefined;
      if (!o) return;
      const schema = { type: 'string', pattern: '^[A-Za-z0-9._:-]{8,128}$' };
      o.parameters = [...(o.parameters ?? []), { name: 'Idempotency-Key', in: 'header', required: true, schema }];
    },
  },
  {
    name: 'openapi-connector-provider-id-snake-case',
    statement: 'Connector: id, providerId, name, category, capabilities (in the published description)',
    answer(c, a) {
      // The Connector schema was emitted from the database model with a snake_case naming strategy.
      const s = isDoc(c, a) ? schemaOf(a.json, 'Connector') : undefined;
      if (!s?.properties?.providerId) return;
      s.properties.provider_id = s.properties.providerId;
      delete s.properties.providerId;
      if (Array.isArray(s.required))
        s.required = s.required.map((f: string) => (f === 'providerId' ? 'provider_id' : f));
    },
  },
  {
    name: 'openapi-meta-at-typed-integer',
    statement: 'Meta: at — string, date-time (in the published description)',
    answer(c, a) {
      // The timestamp column type (epoch millis internally) leaked into the document.
      const s = isDoc(c, a) ? schemaOf(a.json, 'Meta') : undefined;
      if (s?.properties?.at) s.properties.at = { type: 'integer', format: 'int64', description: 'epoch milliseconds' };
    },
  },
  {
    name: 'openapi-connection-next-step-typed-object',
    statement: 'Connection: nextStep — string (in the published description)',
    answer(c, a) {
      // A planned structured next step ({action, url}) was documented before it shipped.
      const s = isDoc(c, a) ? schemaOf(a.json, 'Connection') : undefined;
      if (s?.properties?.nextStep)
        s.properties.nextStep = {
          type: 'object',
          properties: { action: { type: 'string' }, url: { type: 'string' } },
          required: ['action'],
        };
    },
  },
  {
    name: 'openapi-check-request-closed-without-environment',
    statement:
      'POST /api/public/v1/capabilities: Body — connectorId, capability, environment (no; Environment; default sandbox)',
    answer(c, a) {
      // The request schema was taken from version 1 of the check (no environment) and closed.
      const s = isDoc(c, a) ? schemaOf(a.json, 'CapabilityCheckRequest') : undefined;
      if (!s?.properties?.environment) return;
      delete s.properties.environment;
      s.additionalProperties = false;
    },
  },
  {
    name: 'openapi-connections-tenant-typed-integer',
    statement:
      'GET /api/public/v1/connections: data: tenant (string), count (integer), connections (in the published description)',
    answer(c, a) {
      // The tenant was documented as its internal numeric key.
      const data = isDoc(c, a)
        ? op(a.json, '/connections', 'get')?.responses?.['200']?.content?.['application/json']?.schema?.properties?.data
        : undefined;
      if (data?.properties?.tenant) data.properties.tenant = { type: 'integer', minimum: 1 };
    },
  },
  {
    name: 'openapi-meta-replayed-required',
    statement: 'Meta: replayed — boolean, Required: no (in the published description)',
    answer(c, a) {
      // A required list generated from a sample replay answer, which carried every field.
      const s = isDoc(c, a) ? schemaOf(a.json, 'Meta') : undefined;
      if (Array.isArray(s?.required) && !s.required.includes('replayed')) s.required = [...s.required, 'replayed'];
    },
  },
  {
    name: 'openapi-key-issue-request-body-missing',
    statement:
      'POST /api/public/v1/idempotency-keys: Body (JSON): operation (string, required, length 2 to 80) — in the published description',
    answer(c, a) {
      // The handler reads the body through an untyped helper, so the generator saw no request body.
      const o = isDoc(c, a) ? op(a.json, '/idempotency-keys', 'post') : undefined;
      if (o?.requestBody) delete o.requestBody;
    },
  },
  {
    name: 'openapi-stream-cursor-typed-number',
    statement: 'GET /api/public/v1/stream: cursor — query, integer, minimum 0 (in the published description)',
    answer(c, a) {
      // The generator maps every numeric query parameter to "number", so 2.5 is documented as a valid cursor.
      const params = isDoc(c, a) ? (op(a.json, '/stream', 'get')?.parameters as Rec[] | undefined) : undefined;
      const num = (t: unknown) => (t === 'integer' ? 'number' : t);
      for (const p of params ?? [])
        if (p.name === 'cursor' && p.in === 'query' && p.schema)
          p.schema = { ...p.schema, type: Array.isArray(p.schema.type) ? p.schema.type.map(num) : num(p.schema.type) };
    },
  },
];
