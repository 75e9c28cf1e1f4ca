// alder's OpenAPI 3.1 document, built in code from the same names the controllers use, so what is
// documented is what is served. Full paths, one server per base address called.
import { CURRENT_VERSION } from './http.ts';
import { eventPaths } from './openapi-event-paths.ts';
import { catalogPaths } from './openapi-paths.ts';
import { HEADERS, SCHEMAS } from './openapi-schemas.ts';
import { ENVIRONMENTS, KEY_PATTERN } from './validate.ts';

export function openapiDocument(origin: string): Record<string, unknown> {
  return {
    openapi: '3.1.0',
    info: {
      title: 'Network Connections Service (alder)',
      version: CURRENT_VERSION,
      description: 'Public interface /api/public/v1 as deployed by alder.',
    },
    servers: [{ url: origin }],
    paths: { ...catalogPaths(), ...eventPaths() },
    components: {
      schemas: SCHEMAS,
      headers: HEADERS,
      parameters: {
        ServiceVersion: {
          name: 'Service-Version',
          in: 'header',
          required: false,
          schema: { type: 'string', examples: [CURRENT_VERSION] },
          description: 'optional; an unknown value is served as the current version',
        },
        Tenant: { name: 'x-service-tenant', in: 'header', required: true, schema: { type: 'string', minLength: 1 } },
        IdempotencyKey: {
          name: 'Idempotency-Key',
          in: 'header',
          required: true,
          schema: { type: 'string', pattern: KEY_PATTERN.source },
        },
        Page: { name: 'page', in: 'query', required: false, schema: { type: 'integer', minimum: 1 } },
        PerPage: {
          name: 'per_page',
          in: 'query',
          required: false,
          schema: { type: 'integer', minimum: 1, maximum: 100 },
        },
      },
      securitySchemes: {
        oauth2: {
          type: 'oauth2',
          flows: {
            clientCredentials: { tokenUrl: `${origin}/oauth/token`, scopes: { public: 'the public interface' } },
          },
        },
      },
    },
    'x-environments': ENVIRONMENTS,
  };
}
