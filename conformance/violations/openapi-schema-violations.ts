import { BASE_PATH } from '../../simulator/contract/versions.ts';
import { documentEdit, everyObject, type Node } from './document-edit.ts';
import type { Violation } from './types.ts';

const schemasOf = (doc: Node) => ((doc.components as Node | undefined)?.schemas ?? {}) as Record<string, Node>;
const propertiesOf = (schema: Node | undefined) => (schema?.properties ?? {}) as Record<string, Node>;
const operation = (doc: Node, path: string, method: string) =>
  ((doc.paths as Node | undefined)?.[`${BASE_PATH}${path}`] as Node | undefined)?.[method] as Node | undefined;

/**
 * Violations of the published description's own rules: Schema Objects that are no valid JSON Schema
 * 2020-12, a parameter listed twice, failure codes a status cannot carry, and answers documented without
 * the interface's fields or with enumeration values it lacks. What the deployment does is unchanged.
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
];
