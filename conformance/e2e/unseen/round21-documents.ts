import { openApiYaml } from '../../../simulator/contract/openapi-yaml.ts';
import type { ProxyAnswer, ProxyCall, UnseenViolation } from './proxy.ts';
import { P } from './proxy-helpers.ts';

/**
 * Round 21 of the unseen violations, part 4: the OpenAPI document — the cursor documented with a
 * maximum, GET /connections documented with a required request body, the key request's operation
 * documented with a dotted pattern, capability items documented shorter than 120, the current
 * document's info.version naming the earlier version, Last-Event-ID documented as an integer, the
 * Connection's environment documented as a free string, an error code outside the Errors table in the
 * failure schema, and meta.requestId documented as optional.
 */
type Rec = Record<string, any>;
const isDoc = (c: ProxyCall) => c.method === 'GET' && c.path === P('/openapi.json');
const versionOf = (c: ProxyCall) => c.search.get('version') ?? c.headers['service-version'] ?? '2026-07-01';
/** A document violation: the YAML download of the same version and address is served from the edited JSON. */
const documentEdit = (edit: (doc: Rec) => void): Pick<UnseenViolation, 'request' | 'answer'> => ({
  request(c) {
    if (c.method !== 'GET' || c.path !== P('/openapi.yaml')) return undefined;
    const doc = c.memory.get(`r21-doc:${c.base}:${versionOf(c)}`) as Rec | undefined;
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
    c.memory.set(`r21-doc:${c.base}:${versionOf(c)}`, structuredClone(a.json));
  },
});
const paths = (doc: Rec) => (doc && typeof doc.paths === 'object' ? (doc.paths as Rec) : {});
const op = (doc: Rec, tail: string, method: string) => paths(doc)[P(tail)]?.[method] as Rec | undefined;
const schemas = (doc: Rec) => (doc?.components?.schemas ?? {}) as Rec;
const param = (o: Rec | undefined, name: string) =>
  (o?.parameters as Rec[] | undefined)?.find((p) => String(p.name).toLowerCase() === name.toLowerCase());

export const ROUND21_DOCUMENTS: UnseenViolation[] = [
  {
    name: 'openapi-cursor-maximum-documented',
    statement: 'Limits: cursor | integer, minimum 0 — GET /api/public/v1/stream: cursor | query | integer, minimum 0',
    ...documentEdit((doc) => {
      // The generator copied the backlog's retention size into the parameter as a maximum.
      const s = param(op(doc, '/stream', 'get'), 'cursor')?.schema as Rec | undefined;
      if (s) s.maximum = 10000;
    }),
  },
  {
    name: 'openapi-connections-list-requires-body',
    statement: 'GET /api/public/v1/connections: No parameters.',
    ...documentEdit((doc) => {
      // The list and the creation share one route definition, and the list inherited the creation's body.
      const list = op(doc, '/connections', 'get');
      const create = op(doc, '/connections', 'post');
      if (list && create?.requestBody) list.requestBody = structuredClone(create.requestBody);
    }),
  },
  {
    name: 'openapi-key-operation-dotted-pattern',
    statement:
      'POST /api/public/v1/idempotency-keys: operation (string, required, length 2 to 80; short name of the operation, e.g. connection.create)',
    ...documentEdit((doc) => {
      // The example's shape (resource.verb) was turned into a rule.
      const s = schemas(doc).CreateIdempotencyKeyRequest?.properties?.operation as Rec | undefined;
      if (s) s.pattern = '^[a-z]+\\.[a-z]+$';
    }),
  },
  {
    name: 'openapi-capability-items-max-length-64',
    statement: 'Limits: capabilities in connection creation | 1 to 24 items, each length 2 to 120',
    ...documentEdit((doc) => {
      // The item schema reuses the catalog id's column width.
      const items = schemas(doc).CreateConnectionRequest?.properties?.capabilities?.items as Rec | undefined;
      if (items) items.maxLength = 64;
    }),
  },
  {
    name: 'openapi-info-version-earlier',
    statement:
      'Versioning: The current version identifier is 2026-07-01 — openapi.json returns the machine-readable description of this interface',
    ...documentEdit((doc) => {
      // The document's info block is filled from the package's first published version constant.
      if (doc.info && typeof doc.info === 'object' && doc.info.version === '2026-07-01')
        doc.info.version = '2026-06-12';
    }),
  },
  {
    name: 'openapi-last-event-id-typed-integer',
    statement: 'GET /api/public/v1/stream: Last-Event-ID | header | string | no | last number read',
    ...documentEdit((doc) => {
      // The header was documented with the cursor's schema.
      const p = param(op(doc, '/stream', 'get'), 'last-event-id');
      if (p) p.schema = { type: 'integer', minimum: 0 };
    }),
  },
  {
    name: 'openapi-connection-environment-free-string',
    statement:
      'Connection: environment | Environment — Environment (enumeration): development, sandbox, pilot, production',
    ...documentEdit((doc) => {
      // The read model's environment column is a plain text column and the schema lost its enumeration.
      const props = schemas(doc).Connection?.properties as Rec | undefined;
      if (props?.environment) props.environment = { type: 'string' };
    }),
  },
  {
    name: 'openapi-error-code-enum-adds-validation-error',
    statement: 'Failure envelope: error.code | string | yes | one of the codes in the Errors part',
    ...documentEdit((doc) => {
      // A code of the validation library leaked into the shared error enumeration.
      const code = schemas(doc).FailureEnvelope?.properties?.error?.properties?.code as Rec | undefined;
      if (Array.isArray(code?.enum)) code.enum = [...code.enum, 'validation_error'];
    }),
  },
  {
    name: 'openapi-meta-request-id-optional',
    statement: 'Meta: requestId | string | yes | identifier of this call, quoted for support queries',
    ...documentEdit((doc) => {
      // Meta was generated from a partial type, so only version and at stayed required.
      const meta = schemas(doc).Meta as Rec | undefined;
      if (Array.isArray(meta?.required)) meta.required = meta.required.filter((r: string) => r !== 'requestId');
    }),
  },
];
