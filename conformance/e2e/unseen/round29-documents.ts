import type { ProxyAnswer, ProxyCall, UnseenViolation } from './proxy.ts';
import { P } from './proxy-helpers.ts';

/**
 * Round 29 of the unseen violations, part 3: the OpenAPI document and the self-description — error.code
 * not required, connectorId of a check not required, expiresAt of an issued key not required, a key
 * pattern that admits a slash, a cursor minimum of -1, X-RateLimit-Remaining typed string, the webhook
 * registration documented as PUT, and self-description route paths with a version placeholder.
 */
type Rec = Record<string, any>;
const isDoc = (c: ProxyCall, a: ProxyAnswer) =>
  c.method === 'GET' && c.path === P('/openapi.json') && a.status === 200 && Boolean(a.json.paths);
const schemaOf = (doc: Rec, name: string) => doc.components?.schemas?.[name] as Rec | undefined;
const KEY_PATTERN = '^[A-Za-z0-9._:-]{8,128}$';

/** Calls `visit` on every object of the document. */
function walk(node: unknown, visit: (o: Rec) => void) {
  if (!node || typeof node !== 'object') return;
  if (!Array.isArray(node)) visit(node as Rec);
  for (const v of Object.values(node as Rec)) walk(v, visit);
}

export const ROUND29_DOCUMENTS: UnseenViolation[] = [
  {
    name: 'openapi-failure-error-code-not-required',
    statement: 'Failure envelope: error.code — string, required, one of the codes in the Errors part',
    answer(c, a) {
      // The error schema was generated from a class whose code field has a default, so the generator
      // dropped it from the required list.
      const err = isDoc(c, a) ? schemaOf(a.json, 'FailureEnvelope')?.properties?.error : undefined;
      if (Array.isArray(err?.required)) err.required = err.required.filter((f: string) => f !== 'code');
    },
  },
  {
    name: 'openapi-check-connector-id-not-required',
    statement: 'POST /api/public/v1/capabilities: Body — connectorId (string, required, length 2 to 120)',
    answer(c, a) {
      // The check body shares its schema builder with the connector filter, where connectorId is optional.
      const s = isDoc(c, a) ? schemaOf(a.json, 'CapabilityCheckRequest') : undefined;
      if (Array.isArray(s?.required)) s.required = s.required.filter((f: string) => f !== 'connectorId');
    },
  },
  {
    name: 'openapi-key-result-expires-at-not-required',
    statement:
      'POST /api/public/v1/idempotency-keys: data: idempotencyKey (string), operation (string), expiresAt (date-time)',
    answer(c, a) {
      // expiresAt was marked optional when keys without expiry were planned; they never shipped.
      const s = isDoc(c, a) ? schemaOf(a.json, 'IdempotencyKeyResult') : undefined;
      if (Array.isArray(s?.required)) s.required = s.required.filter((f: string) => f !== 'expiresAt');
    },
  },
  {
    name: 'openapi-key-pattern-admits-slash',
    statement:
      'Limits: Idempotency-Key — pattern ^[A-Za-z0-9._:-]{8,128}$ (8 to 128 characters of letters, digits, dot, underscore, colon, hyphen)',
    answer(c, a) {
      // The documented pattern was widened for path-like keys of an internal tool.
      if (!isDoc(c, a)) return;
      walk(a.json, (o) => {
        if (o.pattern === KEY_PATTERN) o.pattern = '^[A-Za-z0-9._:/-]{8,128}$';
      });
    },
  },
  {
    name: 'openapi-cursor-minimum-minus-one',
    statement: 'GET /api/public/v1/stream: cursor — query, integer, minimum 0',
    answer(c, a) {
      // -1 was documented as "from the start" by one team; the service refuses it.
      if (!isDoc(c, a)) return;
      for (const p of ((a.json.paths as Rec)[P('/stream')]?.get?.parameters as Rec[] | undefined) ?? [])
        if (p?.name === 'cursor' && p.schema) p.schema.minimum = -1;
    },
  },
  {
    name: 'openapi-remaining-header-typed-string',
    statement: 'Limits: Response headers: X-RateLimit-Remaining (calls left in the window)',
    answer(c, a) {
      // The header component was copied from Retry-After's HTTP-date variant and left as a string.
      if (!isDoc(c, a)) return;
      const h = (a.json.components as Rec | undefined)?.headers?.['X-RateLimit-Remaining'] as Rec | undefined;
      if (h?.schema) h.schema = { type: 'string' };
    },
  },
  {
    name: 'openapi-webhook-registration-documented-as-put',
    statement: 'Endpoints: POST /api/public/v1/webhooks — create a webhook receiver (OpenAPI 3.1 document)',
    answer(c, a) {
      // The document generator maps "create or replace" handlers to PUT.
      if (!isDoc(c, a)) return;
      const item = (a.json.paths as Rec)[P('/webhooks')] as Rec | undefined;
      if (!item?.post) return;
      item.put = item.post;
      delete item.post;
    },
  },
  {
    name: 'self-description-route-paths-version-placeholder',
    statement:
      'GET /api/public/v1: data: routes (array of RouteInfo) — RouteInfo: path; All paths start with /api/public/v1.',
    answer(c, a) {
      // The route table is rendered from the router's templates, where the version is a parameter.
      if (c.method !== 'GET' || c.path !== P('') || a.status !== 200) return;
      for (const r of (a.json.data?.routes as Rec[] | undefined) ?? [])
        if (typeof r?.path === 'string') r.path = r.path.replace(P(''), '/api/public/{version}');
    },
  },
];
