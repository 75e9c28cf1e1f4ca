// The schemas of the OpenAPI document: components, the data of each success answer, the request bodies.
import { WEBHOOK_EVENTS } from './webhooks.ts';

export type Json = Record<string, unknown>;
export const ref = (n: string) => ({ $ref: `#/components/schemas/${n}` });
export const s = (type: string, extra: Json = {}) => ({ type, ...extra });
export const obj = (properties: Json, required: string[] = []) => ({ type: 'object', properties, required });
const str2 = (max: number) => s('string', { minLength: 2, maxLength: max });
const ENV = { type: 'string', enum: ['development', 'sandbox', 'pilot', 'production'] };

export const SCHEMAS: Json = {
  Meta: obj(
    {
      requestId: s('string'),
      version: s('string'),
      at: s('string', { format: 'date-time' }),
      idempotencyKey: s('string'),
      replayed: s('boolean'),
    },
    ['requestId', 'version', 'at'],
  ),
  Failure: obj(
    {
      ok: { type: 'boolean', enum: [false] },
      error: obj({ code: s('string'), message: s('string'), detail: s('string'), hint: s('string') }, [
        'code',
        'message',
      ]),
      meta: ref('Meta'),
    },
    ['ok', 'error', 'meta'],
  ),
  Provider: obj({ id: s('string'), name: s('string'), category: s('string'), summary: s('string') }, [
    'id',
    'name',
    'category',
    'summary',
  ]),
  Connector: obj(
    {
      id: s('string'),
      providerId: s('string'),
      name: s('string'),
      category: s('string'),
      capabilities: s('array', { items: s('string') }),
    },
    ['id', 'providerId', 'name', 'category', 'capabilities'],
  ),
  Capability: obj({ id: s('string'), label: s('string'), critical: s('boolean'), idempotencyRequired: s('boolean') }, [
    'id',
    'label',
    'critical',
    'idempotencyRequired',
  ]),
  Connection: obj(
    {
      id: s('string'),
      connectorId: s('string'),
      environment: ENV,
      scopeLabel: s('string'),
      state: s('string', { description: 'Requested, Provisioning or Live' }),
      capabilities: s('array', {
        items: obj({ capability: s('string'), critical: s('boolean'), idempotencyRequired: s('boolean') }, [
          'capability',
          'critical',
          'idempotencyRequired',
        ]),
      }),
      nextStep: s('string'),
      createdAt: s('string', { format: 'date-time' }),
    },
    ['id', 'connectorId', 'environment', 'scopeLabel', 'state', 'capabilities', 'nextStep', 'createdAt'],
  ),
  RouteInfo: obj({ method: s('string'), path: s('string'), purpose: s('string'), auth: s('boolean') }, [
    'method',
    'path',
    'purpose',
    'auth',
  ]),
};

const list = (name: string, item: string, extra: Json = {}) =>
  obj({ ...extra, count: s('integer'), [name]: s('array', { items: ref(item) }) }, [
    ...Object.keys(extra),
    'count',
    name,
  ]);

export const DATA: Record<string, unknown> = {
  'GET /api/public/v1': obj(
    {
      service: s('string'),
      surface: s('string'),
      version: s('string'),
      authentication: s('object'),
      idempotency: s('object'),
      routes: s('array', { items: ref('RouteInfo') }),
    },
    ['service', 'surface', 'version', 'authentication', 'idempotency', 'routes'],
  ),
  'GET /api/public/v1/providers': list('providers', 'Provider'),
  'GET /api/public/v1/connectors': list('connectors', 'Connector'),
  'GET /api/public/v1/capabilities': list('capabilities', 'Capability'),
  'POST /api/public/v1/capabilities': obj(
    {
      decision: obj(
        {
          connectorId: s('string'),
          capability: s('string'),
          allowed: s('boolean'),
          critical: s('boolean'),
          idempotencyRequired: s('boolean'),
          reason: s('string'),
        },
        ['connectorId', 'capability', 'allowed', 'critical', 'idempotencyRequired', 'reason'],
      ),
      environment: ENV,
    },
    ['decision', 'environment'],
  ),
  'GET /api/public/v1/connections': list('connections', 'Connection', { tenant: s('string') }),
  'POST /api/public/v1/connections': ref('Connection'),
  'GET /api/public/v1/connections/{connectionId}': ref('Connection'),
  'POST /api/public/v1/idempotency-keys': obj(
    { idempotencyKey: s('string'), operation: s('string'), expiresAt: s('string', { format: 'date-time' }) },
    ['idempotencyKey', 'operation', 'expiresAt'],
  ),
};

export const BODIES: Record<string, unknown> = {
  'POST /api/public/v1/capabilities': obj({ connectorId: str2(120), capability: str2(120), environment: ENV }, [
    'connectorId',
    'capability',
  ]),
  'POST /api/public/v1/connections': obj(
    {
      connectorId: str2(120),
      environment: ENV,
      scopeLabel: str2(120),
      capabilities: s('array', { minItems: 1, maxItems: 24, items: str2(120) }),
    },
    ['connectorId', 'environment', 'scopeLabel', 'capabilities'],
  ),
  'POST /api/public/v1/idempotency-keys': obj({ operation: s('string', { minLength: 2, maxLength: 80 }) }, [
    'operation',
  ]),
  'POST /api/public/v1/webhooks': obj(
    {
      url: s('string', { format: 'uri' }),
      events: s('array', { minItems: 1, items: s('string', { enum: [...WEBHOOK_EVENTS] }) }),
    },
    ['url', 'events'],
  ),
};
