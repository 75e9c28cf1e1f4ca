// The paths of alder's catalog, connection and key operations (the contract's, plus pause/resume and the
// documents themselves).
import { B, list, one, operation, PAGING, pathId, query, ref, str, success } from './openapi-build.ts';

export function catalogPaths(): Record<string, unknown> {
  return {
    [B]: {
      get: operation({
        id: 'describeService',
        summary: 'self-description',
        auth: false,
        ok: success(
          {
            service: { type: 'string' },
            surface: { type: 'string' },
            version: { type: 'string' },
            authentication: { type: 'object' },
            idempotency: { type: 'object' },
            routes: { type: 'array', items: ref('RouteInfo') },
          },
          ['service', 'surface', 'version', 'authentication', 'idempotency', 'routes'],
          false,
        ),
      }),
    },
    [`${B}/openapi.json`]: {
      get: operation({
        id: 'getOpenApiDocument',
        summary: 'OpenAPI 3.1 document',
        auth: false,
        ok: { description: 'the document', content: { 'application/json': { schema: { type: 'object' } } } },
      }),
    },
    [`${B}/openapi.yaml`]: {
      get: operation({
        id: 'getOpenApiYaml',
        summary: 'OpenAPI 3.1 document as a YAML download',
        auth: false,
        ok: { description: 'the document', content: { 'application/yaml': { schema: { type: 'string' } } } },
      }),
    },
    [`${B}/info`]: {
      get: operation({
        id: 'getInfo',
        summary: 'the calling access, tenant and environment',
        auth: true,
        ok: success(
          { tenant: { type: 'string' }, client: { type: 'string' }, environment: ref('Environment') },
          ['tenant', 'client', 'environment'],
          true,
        ),
      }),
    },
    [`${B}/providers`]: {
      get: operation({
        id: 'listProviders',
        summary: 'list providers',
        auth: true,
        params: [query('category', { type: 'string' }), ...PAGING],
        ok: list('providers', 'Provider'),
      }),
    },
    [`${B}/connectors`]: {
      get: operation({
        id: 'listConnectors',
        summary: 'list connectors',
        auth: true,
        params: [
          query('capability', { type: 'string' }),
          query('providerId', { type: 'string' }),
          query('category', { type: 'string' }),
          ...PAGING,
        ],
        ok: list('connectors', 'Connector'),
      }),
    },
    [`${B}/capabilities`]: {
      get: operation({
        id: 'listCapabilities',
        summary: 'capability catalog',
        auth: true,
        params: PAGING,
        ok: list('capabilities', 'Capability'),
      }),
      post: operation({
        id: 'checkCapability',
        summary: 'check a capability of a connector',
        auth: true,
        body: {
          type: 'object',
          required: ['connectorId', 'capability'],
          properties: {
            connectorId: str(2, 120),
            capability: str(2, 120),
            environment: { ...ref('Environment'), default: 'sandbox' },
          },
        },
        ok: success(
          { decision: ref('CapabilityDecision'), environment: ref('Environment') },
          ['decision', 'environment'],
          true,
        ),
      }),
    },
    [`${B}/connections`]: {
      get: operation({
        id: 'listConnections',
        summary: 'connections of the tenant',
        auth: true,
        params: PAGING,
        ok: success(
          {
            tenant: { type: 'string' },
            count: { type: 'integer', minimum: 0 },
            connections: { type: 'array', items: ref('Connection') },
          },
          ['tenant', 'count', 'connections'],
          true,
          true,
        ),
      }),
      post: operation({
        id: 'createConnection',
        summary: 'create a connection',
        auth: true,
        key: true,
        body: {
          type: 'object',
          required: ['connectorId', 'environment', 'scopeLabel', 'capabilities'],
          properties: {
            connectorId: str(2, 120),
            environment: ref('Environment'),
            scopeLabel: str(2, 120),
            capabilities: { type: 'array', minItems: 1, maxItems: 24, items: str(2, 120) },
          },
        },
        ok: one('Connection'),
      }),
    },
    [`${B}/connections/{id}/pause`]: {
      post: operation({
        id: 'pauseConnection',
        summary: 'pause a connection',
        auth: true,
        key: true,
        params: [pathId],
        ok: one('Connection'),
      }),
    },
    [`${B}/connections/{id}/resume`]: {
      post: operation({
        id: 'resumeConnection',
        summary: 'resume a paused connection',
        auth: true,
        key: true,
        params: [pathId],
        ok: one('Connection'),
      }),
    },
    [`${B}/idempotency-keys`]: {
      post: operation({
        id: 'createIdempotencyKey',
        summary: 'generate an idempotency key',
        auth: true,
        body: { type: 'object', required: ['operation'], properties: { operation: str(2, 80) } },
        ok: one('IdempotencyKeyResult'),
      }),
    },
  };
}
