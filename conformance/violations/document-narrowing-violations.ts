// Violations of the published description that describe away what the interface allows or requires: a
// schema narrower than the interface (a minimum, a pattern, a required body), a field in the wrong place
// or of the wrong type, a code outside the Errors table. What the deployment does is unchanged.
import { BASE_PATH } from '../../simulator/contract/versions.ts';
import { documentEdit, everyObject, type Node } from './document-edit.ts';
import type { Violation } from './types.ts';

const path = (doc: Node, tail: string) => (doc.paths as Node | undefined)?.[`${BASE_PATH}${tail}`] as Node | undefined;

export const DOCUMENT_NARROWING_VIOLATIONS: Violation[] = [
  {
    name: 'openapi-provider-count-minimum-one',
    description:
      "openapi.json gives the count of GET /providers a minimum of 1 (a paging helper's schema reused), though a filter matching nothing counts 0",
    section: 'GET /api/public/v1/providers',
    catches: ['envelope.response-schema-openapi'],
    handle: documentEdit((doc) =>
      everyObject(doc, (node) => {
        const props = node.properties as Node | undefined;
        if (props?.providers && props.count && typeof props.count === 'object') (props.count as Node).minimum = 1;
      }),
    ),
  },
  {
    name: 'openapi-webhook-events-as-string',
    description:
      'openapi.json types the events of POST /webhooks as one string (a comma-separated list), though the interface sends an array of event names',
    section: 'POST /api/public/v1/webhooks (appears in a sample call only)',
    catches: ['openapi.parameter-types'],
    handle: documentEdit((doc) =>
      everyObject(doc, (node) => {
        const props = node.properties as Node | undefined;
        if (props?.url && props.events) props.events = { type: 'string', description: 'comma-separated event names' };
      }),
    ),
  },
  {
    name: 'openapi-check-environment-in-query',
    description:
      'openapi.json documents the environment of POST /capabilities as a query parameter instead of a body field',
    section: 'POST /api/public/v1/capabilities',
    catches: ['openapi.parameter-types', 'openapi.bodies-admit-served'],
    handle: documentEdit((doc) => {
      const post = ((doc.paths as Node | undefined)?.[`${BASE_PATH}/capabilities`] as Node | undefined)?.post as
        | Node
        | undefined;
      if (!post) return;
      // The body's schema, inline or in components (the check's request: connectorId, capability, environment).
      everyObject([post.requestBody, (doc.components as Node | undefined)?.schemas], (node) => {
        const props = node.properties as Node | undefined;
        if (!props?.environment || !props.connectorId || !props.capability) return;
        const schema = props.environment;
        delete props.environment;
        if (Array.isArray(node.required)) node.required = node.required.filter((r) => r !== 'environment');
        post.parameters = [...((post.parameters as unknown[]) ?? []), { name: 'environment', in: 'query', schema }];
      });
    }),
  },
  {
    name: 'openapi-connections-list-requires-body',
    description:
      "openapi.json documents GET /connections with the creation's request body, required (a copy-paste of the path item), though it takes no parameters",
    section: 'GET /api/public/v1/connections',
    catches: ['openapi.required-not-narrower'],
    handle: documentEdit((doc) => {
      const item = path(doc, '/connections');
      const get = item?.get as Node | undefined;
      const post = item?.post as Node | undefined;
      if (get && post?.requestBody) get.requestBody = { ...(post.requestBody as Node), required: true };
    }),
  },
  {
    name: 'openapi-operation-dotted-pattern',
    description:
      'openapi.json gives the operation of POST /idempotency-keys a pattern ^[a-z]+\\.[a-z]+$ (resource.verb), though the interface bounds it by length only',
    section: 'POST /api/public/v1/idempotency-keys',
    catches: ['openapi.limits-not-narrower', 'openapi.bodies-admit-served'],
    handle: documentEdit((doc) =>
      everyObject(doc, (node) => {
        const props = node.properties as Node | undefined;
        if (props?.operation && typeof props.operation === 'object' && !props.idempotencyKey)
          (props.operation as Node).pattern = '^[a-z]+\\.[a-z]+$';
      }),
    ),
  },
  {
    name: 'openapi-cursor-maximum',
    description:
      "openapi.json gives the stream's cursor a maximum of 10000 (a page-size bound copied onto it), though the interface gives it a minimum only",
    section: 'GET /api/public/v1/stream',
    catches: ['openapi.limits-not-narrower'],
    handle: documentEdit((doc) =>
      everyObject((path(doc, '/stream')?.get as Node | undefined)?.parameters, (node) => {
        if (node.name === 'cursor' && node.schema && typeof node.schema === 'object')
          (node.schema as Node).maximum = 10000;
      }),
    ),
  },
  {
    name: 'openapi-failure-meta-optional',
    description:
      "openapi.json leaves meta out of the failure envelope's required fields (the answers still carry it), though the interface marks it required",
    section: 'Failure envelope (every error response)',
    catches: ['openapi.required-not-wider'],
    handle: documentEdit((doc) => {
      const failure = ((doc.components as Node | undefined)?.schemas as Node | undefined)?.FailureEnvelope as
        | Node
        | undefined;
      if (Array.isArray(failure?.required)) failure.required = failure.required.filter((r) => r !== 'meta');
    }),
  },
  {
    name: 'openapi-error-code-extra',
    description:
      "openapi.json lists validation_error among the error codes of every failure (a framework's default), outside the Errors table",
    section: 'Errors',
    catches: ['openapi.error-codes-complete'],
    handle: documentEdit((doc) =>
      everyObject(doc, (node) => {
        if (Array.isArray(node.enum) && node.enum.includes('idempotency_required'))
          node.enum = [...node.enum, 'validation_error'];
      }),
    ),
  },
  {
    name: 'openapi-connector-id-format-uuid',
    description:
      "openapi.json gives every request body's connectorId the format uuid (a generator's default for ids), though the catalog's connector ids are no UUIDs and the service takes them",
    section: 'GET /api/public/v1/openapi.json',
    catches: ['openapi.bodies-admit-served'],
    handle: documentEdit((doc) =>
      everyObject(doc, (node) => {
        const props = node.properties as Node | undefined;
        // Request bodies only (the capability check and the creation), not the answers' connections and decisions.
        const request =
          props && ('capability' in props || 'scopeLabel' in props) && !('id' in props) && !('allowed' in props);
        if (request && props.connectorId && typeof props.connectorId === 'object')
          (props.connectorId as Node).format = 'uuid';
      }),
    ),
  },
  {
    name: 'openapi-scope-label-deprecated',
    description:
      "openapi.json marks the creation's body field scopeLabel deprecated (a planned move to the sample call's restaurantId), though the interface's field list requires it",
    section: 'Versioning',
    catches: ['openapi.contract-not-deprecated'],
    handle: documentEdit((doc) =>
      everyObject(doc, (node) => {
        // Every schema that lists scopeLabel beside connectorId: the creation's request (and, harmlessly, its answer).
        const props = node.properties as Node | undefined;
        if (props?.scopeLabel && props.connectorId && typeof props.scopeLabel === 'object')
          (props.scopeLabel as Node).deprecated = true;
      }),
    ),
  },
];
