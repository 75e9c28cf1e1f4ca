import { openApiYaml } from '../../../simulator/contract/openapi-yaml.ts';
import type { ProxyAnswer, ProxyCall, UnseenViolation } from './proxy.ts';
import { P } from './proxy-helpers.ts';

/**
 * Round 17 of the unseen violations, part 1: the published description — the openapi field written as
 * a number, the environment enumeration capitalised, the success flag typed as text, the creation's
 * capability list capped at 12, the check's connectorId allowed one character, the stream cursor typed
 * as text, the Capability record without its key flag, and the decision's allowed flag typed as text.
 */
type Rec = Record<string, any>;
const isDoc = (c: ProxyCall) => c.method === 'GET' && c.path === P('/openapi.json');
const versionOf = (c: ProxyCall) => c.search.get('version') ?? c.headers['service-version'] ?? '2026-07-01';
/** Visits every object of a JSON value. */
const walk = (x: unknown, visit: (o: Rec) => void) => {
  if (Array.isArray(x)) for (const y of x) walk(y, visit);
  else if (x && typeof x === 'object') {
    visit(x as Rec);
    for (const y of Object.values(x)) walk(y, visit);
  }
};
/** A document violation: the YAML download of the same version and address is served from the edited JSON. */
const documentEdit = (edit: (doc: Rec) => void): Pick<UnseenViolation, 'request' | 'answer'> => ({
  request(c) {
    if (c.method !== 'GET' || c.path !== P('/openapi.yaml')) return undefined;
    const doc = c.memory.get(`r17-doc:${c.base}:${versionOf(c)}`) as Rec | undefined;
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
    c.memory.set(`r17-doc:${c.base}:${versionOf(c)}`, structuredClone(a.json));
  },
});
const ENVIRONMENTS = ['development', 'sandbox', 'pilot', 'production'];
const capitalise = (s: string) => s.charAt(0).toUpperCase() + s.slice(1);

export const ROUND17_DOCUMENTS: UnseenViolation[] = [
  {
    name: 'openapi-version-field-as-number',
    statement:
      'GET /api/public/v1/openapi.json: Returns the machine-readable description of this interface as a JSON object (OpenAPI 3.1: the openapi field is a string, e.g. "3.1.0")',
    ...documentEdit((doc) => {
      // The document builder reads the version from a YAML config, where 3.1 unquoted is a float.
      doc.openapi = 3.1;
    }),
  },
  {
    name: 'openapi-environment-enum-capitalised',
    statement:
      'Environment (enumeration): development, sandbox, pilot, production (GET /openapi.json: the machine-readable description of this interface)',
    ...documentEdit((doc) => {
      // The enumeration is exported from a display-name table of the admin UI.
      walk(doc, (o) => {
        if (Array.isArray(o.enum) && ENVIRONMENTS.every((e) => o.enum.includes(e)))
          o.enum = o.enum.map((e: unknown) => (typeof e === 'string' ? capitalise(e) : e));
      });
    }),
  },
  {
    name: 'openapi-success-ok-typed-string',
    statement:
      'Success envelope (every JSON success response): ok | boolean | yes | always true (GET /openapi.json describes this interface)',
    ...documentEdit((doc) => {
      // The success wrapper schema was hand-written with the flag as the literal text "true".
      walk(doc, (o) => {
        const p = o.properties as Rec | undefined;
        const ok = p?.ok as Rec | undefined;
        if (!p || !ok || !p.data) return;
        if (ok.const === true || (Array.isArray(ok.enum) && ok.enum.includes(true)))
          p.ok = { type: 'string', const: 'true' };
      });
    }),
  },
  {
    name: 'openapi-create-capabilities-max-items-12',
    statement:
      'POST /api/public/v1/connections: capabilities | array of string | 1 to 24 items (Limits: capabilities in connection creation 1 to 24 items)',
    ...documentEdit((doc) => {
      // The limit was halved in a draft for a mobile form and the draft schema was published.
      walk(doc, (o) => {
        if (o.type === 'array' && o.maxItems === 24) o.maxItems = 12;
      });
    }),
  },
  {
    name: 'openapi-check-connector-id-min-length-one',
    statement:
      'POST /api/public/v1/capabilities: connectorId | string | yes | length 2 to 120 (GET /openapi.json describes this interface)',
    ...documentEdit((doc) => {
      // The check body reuses a generic "non-empty id" schema instead of the limit table.
      const schemas = (doc.components?.schemas ?? {}) as Rec;
      walk(schemas.CapabilityCheckRequest ?? {}, (o) => {
        const p = o.properties as Rec | undefined;
        if (p?.connectorId && typeof p.connectorId === 'object') p.connectorId = { ...p.connectorId, minLength: 1 };
      });
      const op = Object.entries((doc.paths ?? {}) as Rec).find(([k]) => k.endsWith('/capabilities'))?.[1]?.post as
        | Rec
        | undefined;
      walk(op?.requestBody ?? {}, (o) => {
        const p = o.properties as Rec | undefined;
        if (p?.connectorId && typeof p.connectorId === 'object') p.connectorId = { ...p.connectorId, minLength: 1 };
      });
    }),
  },
  {
    name: 'openapi-stream-cursor-typed-string',
    statement: 'GET /api/public/v1/stream: cursor | query | integer, minimum 0 | no | last number read',
    ...documentEdit((doc) => {
      // Query parameters were documented with their wire type.
      walk(doc, (o) => {
        if (o.name === 'cursor' && o.in === 'query' && o.schema && typeof o.schema === 'object')
          o.schema = { type: 'string', description: o.schema.description ?? 'Last message number read' };
      });
    }),
  },
  {
    name: 'openapi-capability-schema-drops-idempotency-required',
    statement:
      'Capability: idempotencyRequired | boolean | whether calls using this capability need an idempotency key (GET /openapi.json describes this interface)',
    ...documentEdit((doc) => {
      // The field was added to the code in 2026-06-12 but the schema file was never touched.
      const cap = (doc.components?.schemas as Rec | undefined)?.Capability as Rec | undefined;
      if (!cap?.properties) return;
      delete cap.properties.idempotencyRequired;
      if (Array.isArray(cap.required)) cap.required = cap.required.filter((r: unknown) => r !== 'idempotencyRequired');
    }),
  },
  {
    name: 'openapi-decision-allowed-typed-string',
    statement:
      'CapabilityDecision (all fields required): allowed | boolean (GET /openapi.json describes this interface)',
    ...documentEdit((doc) => {
      // The decision schema was generated from a database view where the flag is a 'yes'/'no' column.
      walk(doc, (o) => {
        const p = o.properties as Rec | undefined;
        if (p?.allowed && p.reason && p.connectorId) p.allowed = { type: 'string', enum: ['yes', 'no'] };
      });
    }),
  },
];
