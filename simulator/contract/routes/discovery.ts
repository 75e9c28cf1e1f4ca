import { z } from 'zod';
import { InfoData, SelfDescriptionData } from '../discovery.ts';
import { defineRoutes } from '../route-def.ts';
import { BASE_PATH, SUPPORTED_VERSIONS } from '../versions.ts';

const DocumentQuery = z.object({
  version: z
    .enum(SUPPORTED_VERSIONS)
    .optional()
    .describe('Published interface version of the document (default: current)'),
});

export const discoveryRoutes = defineRoutes([
  {
    id: 'describeService',
    method: 'GET',
    path: BASE_PATH,
    purpose: 'self-description',
    tags: ['discovery'],
    auth: false,
    data: SelfDescriptionData,
  },
  {
    id: 'getOpenApiJson',
    method: 'GET',
    path: `${BASE_PATH}/openapi.json`,
    purpose: 'OpenAPI 3.1 document',
    tags: ['discovery'],
    auth: false,
    kind: 'document',
    query: DocumentQuery,
  },
  {
    id: 'getOpenApiYaml',
    method: 'GET',
    path: `${BASE_PATH}/openapi.yaml`,
    purpose: 'OpenAPI 3.1 document as YAML',
    tags: ['discovery'],
    auth: false,
    kind: 'document',
    query: DocumentQuery,
    addition: true,
  },
  {
    id: 'getInfo',
    method: 'GET',
    path: `${BASE_PATH}/info`,
    purpose: 'who am I: tenant, client, environment and version of the call',
    tags: ['discovery'],
    auth: true,
    scope: 'catalog:read',
    data: InfoData,
    addition: true,
  },
]);
