import { BASE_PATH } from '../../simulator/contract/versions.ts';
import { documentEdit, everyObject, type Node } from './document-edit.ts';
import { editJson } from './json-edit.ts';
import type { Violation } from './types.ts';

const AUDIT = `${BASE_PATH}/audit-log`;
const CONNECTIONS = `${BASE_PATH}/connections`;

/**
 * Violations of the published description and of the audit log's proof: documents that say other than
 * what the interface fixes, and a log that shows no proof at all.
 */
export const DOCUMENT_VIOLATIONS: Violation[] = [
  {
    name: 'openapi-success-201',
    description: 'openapi.json documents the success of POST /connections as 201 (the interface: 200)',
    section: 'Endpoints',
    catches: ['openapi.success-status-200'],
    handle: documentEdit((doc) => {
      const post = ((doc.paths as Node | undefined)?.[CONNECTIONS] as Node | undefined)?.post as Node | undefined;
      const responses = post?.responses as Node | undefined;
      if (!responses?.['200']) return;
      responses['201'] = responses['200'];
      delete responses['200'];
    }),
  },
  {
    name: 'openapi-key-example-outside-pattern',
    description:
      'openapi.json gives the Idempotency-Key header the example "create connection #42", which its own pattern (and the interface\'s) refuses',
    section: 'GET /api/public/v1/openapi.json',
    catches: ['openapi.examples-match-schemas'],
    handle: documentEdit((doc) => {
      everyObject(doc, (node) => {
        if (node.name === 'Idempotency-Key' && node.in === 'header' && node.schema && typeof node.schema === 'object')
          (node.schema as Node).examples = ['create connection #42'];
      });
    }),
  },
  {
    name: 'openapi-bearer-as-query-key',
    description:
      'openapi.json documents every security scheme as an API key in the query (access_token) instead of a bearer token in Authorization',
    section: 'Authentication',
    catches: ['openapi.security-bearer'],
    handle: documentEdit((doc) => {
      const schemes = (doc.components as Node | undefined)?.securitySchemes as Node | undefined;
      for (const name of Object.keys(schemes ?? {}))
        if (schemes) schemes[name] = { type: 'apiKey', in: 'query', name: 'access_token' };
    }),
  },
  {
    name: 'openapi-key-request-as-form',
    description:
      'openapi.json documents the body of POST /idempotency-keys as a form (application/x-www-form-urlencoded) only',
    section: 'Endpoints',
    catches: ['openapi.request-body-json'],
    handle: documentEdit((doc) => {
      const post = ((doc.paths as Node | undefined)?.[`${BASE_PATH}/idempotency-keys`] as Node | undefined)?.post as
        | Node
        | undefined;
      const content = (post?.requestBody as Node | undefined)?.content as Node | undefined;
      const json = content?.['application/json'];
      if (!content || !json) return;
      delete content['application/json'];
      content['application/x-www-form-urlencoded'] = json;
    }),
  },
  {
    name: 'openapi-environment-default-pilot',
    description:
      "openapi.json documents the capability check's environment with default pilot (the interface: sandbox)",
    section: 'POST /api/public/v1/capabilities',
    catches: ['openapi.defaults-match'],
    handle: documentEdit((doc) => {
      const request = ((doc.components as Node | undefined)?.schemas as Node | undefined)?.CapabilityCheckRequest as
        | Node
        | undefined;
      const environment = (request?.properties as Node | undefined)?.environment as Node | undefined;
      if (environment) environment.default = 'pilot';
    }),
  },
  {
    name: 'openapi-servers-repeat-base-path',
    description:
      'openapi.json names /api/public/v1 as its server URL and keeps the prefix on every path (the base path twice)',
    section: 'GET /api/public/v1/openapi.json',
    catches: ['openapi.paths-resolve'],
    handle: documentEdit((doc) => {
      doc.servers = [{ url: BASE_PATH }];
    }),
  },
  {
    name: 'openapi-stream-cursor-undocumented',
    description: 'openapi.json leaves the cursor query parameter out of GET /stream (the interface lists it)',
    section: 'GET /api/public/v1/openapi.json',
    catches: ['openapi.parameters-documented'],
    handle: documentEdit((doc) => {
      const get = ((doc.paths as Node | undefined)?.[`${BASE_PATH}/stream`] as Node | undefined)?.get as
        | Node
        | undefined;
      if (Array.isArray(get?.parameters))
        get.parameters = (get.parameters as Node[]).filter((p) => !(p.name === 'cursor' && p.in === 'query'));
    }),
  },
  {
    name: 'openapi-key-pattern-16-64',
    description:
      'openapi.json documents Idempotency-Key as 16 to 64 letters, digits, _ or - (the interface: 8 to 128, also . and :)',
    section: 'Limits',
    // The run's keys of 8 to 15 characters (and with . or :) are answered 200 too: the schema refuses what is served.
    // The document's own example of a key (with `.` and `:`) is outside the narrowed pattern too.
    catches: ['openapi.examples-match-schemas', 'openapi.limits-not-narrower', 'openapi.parameters-admit-served'],
    handle: documentEdit((doc) =>
      everyObject(doc, (node) => {
        if (node.name === 'Idempotency-Key' && node.in === 'header' && node.schema && typeof node.schema === 'object')
          (node.schema as Node).pattern = '^[A-Za-z0-9_-]{16,64}$';
      }),
    ),
  },
  {
    name: 'openapi-documents-unoffered-delete',
    description:
      'openapi.json documents DELETE /connections (removing every connection of the tenant), which the deployment does not serve (404)',
    section: 'GET /api/public/v1/openapi.json',
    catches: ['openapi.operations-served'],
    handle: documentEdit((doc) => {
      const item = (doc.paths as Node | undefined)?.[CONNECTIONS] as Node | undefined;
      if (item)
        item.delete = {
          operationId: 'deleteConnections',
          summary: 'remove every connection of the tenant',
          responses: { '200': { description: 'removed' } },
        };
    }),
  },
  {
    name: 'openapi-scope-label-ascii-only',
    description:
      'openapi.json restricts the scopeLabel of a creation to ASCII letters, digits, spaces and ._- (the interface: a descriptive name of 2 to 120 characters, e.g. the name of the venue), though the service takes any',
    section: 'Limits',
    catches: ['openapi.limits-not-narrower', 'openapi.bodies-admit-served'],
    handle: documentEdit((doc) => {
      const request = ((doc.components as Node | undefined)?.schemas as Node | undefined)?.CreateConnectionRequest as
        | Node
        | undefined;
      const label = (request?.properties as Node | undefined)?.scopeLabel as Node | undefined;
      if (label) label.pattern = '^[A-Za-z0-9 ._-]+$';
    }),
  },
  {
    name: 'openapi-scope-label-unbounded',
    description: 'openapi.json leaves out the 120-character maximum of scopeLabel (the service still keeps it)',
    section: 'Limits',
    catches: ['openapi.limits-not-wider'],
    handle: documentEdit((doc) =>
      everyObject(doc, (node) => {
        const label = (node.properties as Node | undefined)?.scopeLabel as Node | undefined;
        if (label) delete label.maxLength;
      }),
    ),
  },
  {
    name: 'openapi-connections-list-requires-page',
    description:
      'openapi.json documents GET /connections with a required query parameter page (the interface: no parameters)',
    section: 'Endpoints',
    catches: ['openapi.required-not-narrower'],
    handle: documentEdit((doc) => {
      const get = ((doc.paths as Node | undefined)?.[CONNECTIONS] as Node | undefined)?.get as Node | undefined;
      if (!get) return;
      const params = Array.isArray(get.parameters) ? get.parameters : [];
      get.parameters = [...params, { name: 'page', in: 'query', required: true, schema: { type: 'integer' } }];
    }),
  },
  {
    name: 'openapi-key-header-optional',
    description:
      'openapi.json marks the Idempotency-Key header of every operation optional (the service still requires it)',
    section: 'Endpoints',
    catches: ['openapi.required-not-wider'],
    handle: documentEdit((doc) =>
      everyObject(doc, (node) => {
        if (node.name === 'Idempotency-Key' && node.in === 'header') node.required = false;
      }),
    ),
  },
  {
    name: 'openapi-error-code-integer',
    description:
      "openapi.json documents the failure envelope's error.code as an integer (a generator that numbered the enum), while answers carry the code names",
    section: 'Failure envelope (every error response)',
    catches: ['envelope.failure-schema-openapi'],
    handle: documentEdit((doc) => {
      const failure = ((doc.components as Node | undefined)?.schemas as Node | undefined)?.FailureEnvelope as
        | Node
        | undefined;
      const error = (failure?.properties as Node | undefined)?.error as Node | undefined;
      const props = error?.properties as Node | undefined;
      if (props?.code) props.code = { type: 'integer', minimum: 0 };
    }),
  },
  {
    name: 'audit-proof-stripped',
    description: 'the audit log answers its entries without any proof: no proof object, no hashes',
    section: 'GET /api/public/v1/audit-log (appears in a sample call only)',
    catches: ['audit.proof-shown', 'envelope.response-schema-openapi'],
    async handle(req, next) {
      const res = await next(req);
      if (req.path !== AUDIT || res.status !== 200) return res;
      return editJson(res, (b) => {
        if (!b.data) return;
        delete b.data.proof;
        everyObject(b.data, (node) => {
          for (const k of Object.keys(node)) if (/hash|proof|chain|signature/i.test(k)) delete node[k];
        });
      });
    },
  },
];
