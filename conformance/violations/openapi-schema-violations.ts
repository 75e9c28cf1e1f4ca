import { BASE_PATH } from '../../simulator/contract/versions.ts';
import { documentEdit, everyObject, type Node } from './document-edit.ts';
import type { Violation } from './types.ts';

const schemasOf = (doc: Node) => ((doc.components as Node | undefined)?.schemas ?? {}) as Record<string, Node>;
const propertiesOf = (schema: Node | undefined) => (schema?.properties ?? {}) as Record<string, Node>;
const operation = (doc: Node, path: string, method: string) =>
  ((doc.paths as Node | undefined)?.[`${BASE_PATH}${path}`] as Node | undefined)?.[method] as Node | undefined;

/** The parameter (of an operation) with this name and location, if listed. */
const parameter = (op: Node | undefined, name: string, where: string) =>
  (Array.isArray(op?.parameters) ? (op.parameters as Node[]) : []).find(
    (p) => p.in === where && String(p.name).toLowerCase() === name.toLowerCase(),
  );

/**
 * Violations of the published description's own rules: Schema Objects that are no valid JSON Schema
 * 2020-12, a parameter listed twice, failure codes a status cannot carry, answers documented without the
 * interface's fields or with enumeration values it lacks, path templates without their parameter, bodies
 * left optional, anonymous alternatives, and parameter and header schemas that refuse what is served.
 * What the deployment does is unchanged.
 */
export const OPENAPI_SCHEMA_VIOLATIONS: Violation[] = [
  {
    name: 'openapi-connector-min-items-negative',
    description:
      'openapi.json documents a connector\'s capabilities with minItems -1 (a generator\'s "no minimum"; JSON Schema 2020-12: a non-negative integer)',
    section: 'GET /api/public/v1/openapi.json',
    catches: ['openapi.schemas-valid'],
    handle: documentEdit((doc) => {
      const capabilities = propertiesOf(schemasOf(doc).Connector).capabilities;
      if (capabilities) capabilities.minItems = -1;
    }),
  },
  {
    name: 'openapi-tenant-header-listed-twice',
    description: 'openapi.json lists the x-service-tenant header of POST /connections twice in its parameters',
    section: 'GET /api/public/v1/openapi.json',
    catches: ['openapi.parameters-unique'],
    handle: documentEdit((doc) => {
      const post = operation(doc, '/connections', 'post');
      const params = Array.isArray(post?.parameters) ? (post.parameters as Node[]) : [];
      const tenant = params.find((p) => p.in === 'header' && p.name === 'x-service-tenant');
      if (post && tenant) post.parameters = [...params, structuredClone(tenant)];
    }),
  },
  {
    name: 'openapi-server-errors-own-codes',
    description:
      'openapi.json documents every 500 answer as a 5XX range whose error.code is internal_error or service_unavailable (the Errors table: 500 internal)',
    section: 'Errors',
    catches: ['openapi.error-codes-complete'],
    handle: documentEdit((doc) =>
      everyObject(doc, (node) => {
        const responses = node.responses as Node | undefined;
        const failure = responses?.['500'] as Node | undefined;
        if (!responses || !failure) return;
        const code = { type: 'string', enum: ['internal_error', 'service_unavailable'] };
        const envelope = { $ref: '#/components/schemas/FailureEnvelope' };
        const narrowed = { properties: { error: { properties: { code } } } };
        responses['5XX'] = { ...failure, content: { 'application/json': { schema: { allOf: [envelope, narrowed] } } } };
        delete responses['500'];
      }),
    ),
  },
  {
    name: 'openapi-key-result-without-key',
    description:
      'openapi.json documents the data of POST /idempotency-keys with operation and expiresAt only (the answers still carry idempotencyKey, as additional fields)',
    section: 'POST /api/public/v1/idempotency-keys',
    catches: ['openapi.answer-fields-documented'],
    handle: documentEdit((doc) => {
      const result = schemasOf(doc).IdempotencyKeyResult;
      if (!result) return;
      delete propertiesOf(result).idempotencyKey;
      if (Array.isArray(result.required)) result.required = result.required.filter((r) => r !== 'idempotencyKey');
    }),
  },
  {
    name: 'openapi-check-environment-adds-test',
    description:
      'openapi.json documents the environment of the capability check request with an extra value test (the Environment enumeration has four values)',
    section: 'Environment (enumeration)',
    catches: ['openapi.limits-not-wider'],
    handle: documentEdit((doc) => {
      const environment = propertiesOf(schemasOf(doc).CapabilityCheckRequest).environment;
      if (Array.isArray(environment?.enum)) environment.enum = [...environment.enum, 'test'];
    }),
  },
  {
    name: 'openapi-deliveries-path-parameter-renamed',
    description:
      'openapi.json declares the path parameter of GET /webhooks/{webhookId}/deliveries as receiverId (the template names webhookId, so no parameter fills it)',
    section: 'GET /api/public/v1/openapi.json',
    catches: ['openapi.path-parameters-declared'],
    handle: documentEdit((doc) => {
      const item = (doc.paths as Node | undefined)?.[`${BASE_PATH}/webhooks/{webhookId}/deliveries`] as
        | Node
        | undefined;
      for (const owner of [item, item?.get as Node | undefined]) {
        const p = parameter(owner, 'webhookId', 'path');
        if (p) p.name = 'receiverId';
      }
    }),
  },
  {
    name: 'openapi-connection-body-required-dropped',
    description:
      "openapi.json documents the request body of POST /connections without required: true (OpenAPI's default: the body may be left out)",
    section: 'POST /api/public/v1/connections',
    catches: ['openapi.required-not-wider'],
    handle: documentEdit((doc) => {
      const body = operation(doc, '/connections', 'post')?.requestBody as Node | undefined;
      if (body) delete body.required;
    }),
  },
  {
    name: 'openapi-webhooks-anonymous-first',
    description:
      'openapi.json offers POST /webhooks with an empty security requirement {} as its first alternative (anonymous registration), the bearer scheme second',
    section: 'Authentication',
    catches: ['openapi.security-bearer', 'discovery.openapi-security-matches-auth'],
    handle: documentEdit((doc) => {
      const post = operation(doc, '/webhooks', 'post');
      if (post && Array.isArray(post.security)) post.security = [{}, ...post.security];
    }),
  },
  {
    name: 'openapi-provider-category-stale-enum',
    description:
      "openapi.json documents the category filter of GET /providers as an enumeration of categories the catalog does not use (filters by the catalog's own categories answer 200)",
    section: 'GET /api/public/v1/providers',
    catches: ['openapi.parameters-admit-served'],
    handle: documentEdit((doc) => {
      const p = parameter(operation(doc, '/providers', 'get'), 'category', 'query');
      if (p) p.schema = { type: 'string', enum: ['hardware', 'logistics', 'other'] };
    }),
  },
  {
    name: 'openapi-request-id-documented-as-uuid',
    description:
      'openapi.json documents the X-Request-Id response header as a UUID (format uuid), while the answers carry identifiers of another form',
    section: 'GET /api/public/v1/openapi.json',
    catches: ['openapi.response-headers-admit-served'],
    handle: documentEdit((doc) => {
      const header = ((doc.components as Node | undefined)?.headers as Node | undefined)?.['X-Request-Id'] as
        | Node
        | undefined;
      if (header) header.schema = { type: 'string', format: 'uuid' };
    }),
  },
  {
    name: 'openapi-rate-limit-as-policy-text',
    description:
      'openapi.json documents X-RateLimit-Limit as a policy text "<calls>;w=<seconds>" (pattern ^\\d+;w=\\d+$), while the Limits section and the answers give a number of calls',
    section: 'Limits',
    catches: ['openapi.limit-headers-numeric', 'openapi.response-headers-admit-served'],
    handle: documentEdit((doc) => {
      const header = ((doc.components as Node | undefined)?.headers as Node | undefined)?.['X-RateLimit-Limit'] as
        | Node
        | undefined;
      if (header) header.schema = { type: 'string', pattern: '^\\d+;w=\\d+$' };
    }),
  },
  {
    name: 'openapi-capability-schema-drops-idempotency-required',
    description:
      'openapi.json describes a Capability record without idempotencyRequired (declared properties and required list), while the answers carry it',
    section: 'GET /api/public/v1/openapi.json',
    catches: ['openapi.answer-fields-documented'],
    handle: documentEdit((doc) => {
      const capability = schemasOf(doc).Capability;
      if (!capability) return;
      delete propertiesOf(capability).idempotencyRequired;
      if (Array.isArray(capability.required))
        capability.required = (capability.required as string[]).filter((f) => f !== 'idempotencyRequired');
    }),
  },
  {
    name: 'openapi-key-result-expires-at-integer',
    description:
      'openapi.json types the idempotency key result\'s expiresAt as an integer ("expiresAt | string, date-time")',
    section: 'GET /api/public/v1/openapi.json',
    catches: ['openapi.answer-fields-documented', 'envelope.response-schema-openapi'],
    handle: documentEdit((doc) => {
      const expires = propertiesOf(schemasOf(doc).IdempotencyKeyResult).expiresAt;
      if (expires) {
        for (const k of Object.keys(expires)) delete expires[k];
        expires.type = 'integer';
      }
    }),
  },
  {
    name: 'openapi-tenant-header-as-cookie',
    description: 'openapi.json documents x-service-tenant as a cookie parameter on every operation (it is a header)',
    section: 'GET /api/public/v1/openapi.json',
    catches: ['openapi.parameters-documented'],
    handle: documentEdit((doc) =>
      everyObject(doc, (node) => {
        if (String(node.name).toLowerCase() === 'x-service-tenant' && node.in === 'header') node.in = 'cookie';
      }),
    ),
  },
  {
    name: 'openapi-429-without-retry-after',
    description:
      'openapi.json documents every 429 answer with its rate-limit headers but without Retry-After ("the service answers 429 with a wait time")',
    section: 'Limits',
    catches: ['openapi.retry-after-documented'],
    handle: documentEdit((doc) =>
      everyObject(doc, (node) => {
        const tooMany = node['429'] as Node | undefined;
        const headers = tooMany?.headers as Node | undefined;
        if (headers) for (const name of Object.keys(headers)) if (/^retry-after$/i.test(name)) delete headers[name];
      }),
    ),
  },
  {
    name: 'openapi-create-scope-label-read-only',
    description:
      "openapi.json marks the creation body's scopeLabel readOnly (OpenAPI: not sent in a request), though the interface requires it",
    section: 'GET /api/public/v1/openapi.json',
    catches: ['openapi.parameter-types'],
    handle: documentEdit((doc) => {
      const label = propertiesOf(schemasOf(doc).CreateConnectionRequest).scopeLabel;
      if (label) label.readOnly = true;
    }),
  },
  {
    name: 'openapi-decision-reason-nullable',
    description: 'openapi.json documents CapabilityDecision.reason as string or null ("all fields required": a string)',
    section: 'GET /api/public/v1/openapi.json',
    catches: ['openapi.answer-fields-documented'],
    handle: documentEdit((doc) => {
      const reason = propertiesOf(schemasOf(doc).CapabilityDecision).reason;
      if (reason) reason.type = ['string', 'null'];
    }),
  },
  {
    name: 'openapi-audit-limit-typed-string',
    description:
      'openapi.json types the audit log\'s limit query parameter as a string ("Query: limit (number of entries)")',
    section: 'GET /api/public/v1/openapi.json',
    catches: ['openapi.parameter-types'],
    handle: documentEdit((doc) => {
      const limit = parameter(operation(doc, '/audit-log', 'get'), 'limit', 'query');
      if (limit) limit.schema = { type: 'string' };
    }),
  },
  {
    name: 'openapi-webhook-registration-key-undocumented',
    description:
      'openapi.json leaves the Idempotency-Key header out of POST /webhooks ("Headers: Idempotency-Key, content type JSON"), though the deployment requires it',
    section: 'GET /api/public/v1/openapi.json',
    catches: ['openapi.parameters-documented'],
    handle: documentEdit((doc) => {
      const op = operation(doc, '/webhooks', 'post');
      if (op && Array.isArray(op.parameters))
        op.parameters = (op.parameters as Node[]).filter((p) => String(p.name).toLowerCase() !== 'idempotency-key');
    }),
  },
];
