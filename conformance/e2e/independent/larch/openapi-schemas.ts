// Component schemas of the OpenAPI document (what larch's Jackson DTOs serialise to).
import { ENVIRONMENTS, EVENT_NAMES } from './options.ts';

const ref = (name: string) => ({ $ref: `#/components/schemas/${name}` });
const s = { type: 'string' };
const id = { type: 'string', pattern: '^[0-9]{1,20}$', description: 'a long rendered as a string' };
const time = { type: 'string', format: 'date-time' };
const bool = { type: 'boolean' };
const int = { type: 'integer' };
const obj = (required: string[], properties: Record<string, unknown>) => ({ type: 'object', required, properties });
const list = (name: string, item: string) =>
  obj(['count', name], { count: int, [name]: { type: 'array', items: ref(item) } });
const plainPage = (item: string, _rel: string, extra: Record<string, unknown> = {}) =>
  obj(['content', 'page'], { content: { type: 'array', items: ref(item) }, page: ref('PageMetadata'), ...extra });
const link = obj(['href'], { href: s });
const halPage = (item: string, rel: string, extra: Record<string, unknown> = {}) =>
  obj(['_embedded', '_links', 'page'], {
    _embedded: obj([rel], { [rel]: { type: 'array', items: ref(item) } }),
    _links: obj(['self'], { self: link, next: link, prev: link }),
    page: ref('PageMetadata'),
    ...extra,
  });

const implPage = (item: string, _rel: string, extra: Record<string, unknown> = {}) =>
  obj(['content', 'pageable', 'totalElements', 'totalPages', 'number', 'size'], {
    content: { type: 'array', items: ref(item) },
    pageable: { type: 'object' },
    totalElements: int,
    totalPages: int,
    last: bool,
    first: bool,
    number: int,
    size: int,
    numberOfElements: int,
    empty: bool,
    ...extra,
  });

/** The component schemas; the pages as served: Spring Data `content` + `page`, HATEOAS PagedModel, or PageImpl. */
export function schemas(style: 'page' | 'hal' | 'impl'): Record<string, unknown> {
  const page = style === 'hal' ? halPage : style === 'impl' ? implPage : plainPage;
  return {
    Object: { type: 'object' },
    Meta: obj(['requestId', 'version', 'at'], {
      requestId: s,
      version: s,
      at: time,
      idempotencyKey: s,
      replayed: bool,
    }),
    Failure: obj(['ok', 'error', 'meta'], {
      ok: { const: false },
      error: obj(['code', 'message', 'detail', 'hint'], {
        code: {
          type: 'string',
          enum: [
            'unauthorized',
            'forbidden',
            'not_found',
            'invalid_request',
            'capability_denied',
            'idempotency_conflict',
            'idempotency_required',
            'rate_limited',
            'internal',
          ],
        },
        message: s,
        detail: s,
        hint: s,
      }),
      meta: ref('Meta'),
    }),
    RouteInfo: obj(['method', 'path', 'purpose', 'auth'], { method: s, path: s, purpose: s, auth: bool }),
    SelfDescription: obj(['service', 'surface', 'version', 'authentication', 'idempotency', 'routes'], {
      service: s,
      surface: s,
      version: s,
      authentication: { type: 'object' },
      idempotency: { type: 'object' },
      routes: { type: 'array', items: ref('RouteInfo') },
    }),
    Provider: obj(['id', 'name', 'category', 'summary'], { id, name: s, category: s, summary: s, country: s }),
    Connector: obj(['id', 'providerId', 'name', 'category', 'capabilities'], {
      id,
      providerId: id,
      name: s,
      category: s,
      capabilities: { type: 'array', items: s },
      version: s,
    }),
    Capability: obj(['id', 'label', 'critical', 'idempotencyRequired'], {
      id: s,
      label: s,
      critical: bool,
      idempotencyRequired: bool,
      description: s,
    }),
    ProviderList: list('providers', 'Provider'),
    ConnectorList: list('connectors', 'Connector'),
    CapabilityList: list('capabilities', 'Capability'),
    CapabilityDecision: obj(['connectorId', 'capability', 'allowed', 'critical', 'idempotencyRequired', 'reason'], {
      connectorId: s,
      capability: s,
      allowed: bool,
      critical: bool,
      idempotencyRequired: bool,
      reason: s,
    }),
    DecisionResult: obj(['decision', 'environment'], {
      decision: ref('CapabilityDecision'),
      environment: { type: 'string', enum: ENVIRONMENTS },
    }),
    Connection: obj(
      ['id', 'connectorId', 'environment', 'scopeLabel', 'state', 'capabilities', 'nextStep', 'createdAt'],
      {
        id,
        connectorId: s,
        environment: { type: 'string', enum: ENVIRONMENTS },
        scopeLabel: s,
        state: { type: 'string', enum: ['PENDING', 'ACTIVE'] },
        capabilities: {
          type: 'array',
          items: obj(['capability', 'critical', 'idempotencyRequired'], {
            capability: s,
            critical: bool,
            idempotencyRequired: bool,
          }),
        },
        nextStep: { type: 'string', enum: ['AWAIT_ACTIVATION', 'NONE'] },
        createdAt: time,
        updatedAt: time,
      },
    ),
    ConnectionList: obj(['tenant', 'count', 'connections'], {
      tenant: s,
      count: int,
      connections: { type: 'array', items: ref('Connection') },
    }),
    IdempotencyKeyResult: obj(['idempotencyKey', 'operation', 'expiresAt'], {
      idempotencyKey: s,
      operation: s,
      expiresAt: time,
    }),
    Webhook: obj(['id', 'url', 'events', 'status', 'createdAt'], {
      id,
      url: s,
      events: { type: 'array', items: { type: 'string', enum: EVENT_NAMES } },
      status: { type: 'string', enum: ['ACTIVE', 'DELETED'] },
      createdAt: time,
      signatureHeader: s,
    }),
    WebhookRegistration: {
      allOf: [
        ref('Webhook'),
        obj(['signingKey'], {
          signingKey: obj(['keyId', 'algorithm', 'secret'], {
            keyId: s,
            algorithm: s,
            secret: { type: ['string', 'null'], description: 'shown in this answer only' },
          }),
        }),
      ],
    },
    WebhookList: list('webhooks', 'Webhook'),
    WebhookRemoval: obj(['id', 'status'], { id, status: s }),
    WebhookEvent: obj(['eventId', 'eventType', 'occurredAt', 'webhookId', 'data'], {
      eventId: id,
      eventType: { type: 'string', enum: EVENT_NAMES },
      occurredAt: time,
      webhookId: id,
      data: obj(['connection'], { connection: ref('Connection') }),
    }),
    PageMetadata: obj(['number', 'size', 'totalElements', 'totalPages'], {
      number: int,
      size: int,
      totalElements: int,
      totalPages: int,
    }),
    Attempt: obj(['number', 'at', 'httpStatus', 'outcome', 'durationMs'], {
      number: int,
      at: time,
      httpStatus: { type: ['integer', 'null'] },
      outcome: s,
      durationMs: int,
    }),
    Delivery: obj(['id', 'webhookId', 'eventId', 'eventType', 'status', 'attemptCount', 'attempts', 'createdAt'], {
      id,
      webhookId: id,
      eventId: id,
      eventType: s,
      status: { type: 'string', enum: ['PENDING', 'SUCCEEDED', 'RETRY_SCHEDULED', 'FAILED'] },
      attemptCount: int,
      attempts: { type: 'array', items: ref('Attempt') },
      redeliveryOf: { type: ['string', 'null'] },
      createdAt: time,
      nextAttemptAt: { type: ['string', 'null'], format: 'date-time' },
    }),
    DeliveryPage: page('Delivery', 'deliveries'),
    AuditEntry: obj(['id', 'sequence', 'occurredAt', 'action', 'resourceType', 'resourceId', 'actor'], {
      id,
      sequence: int,
      occurredAt: time,
      action: s,
      resourceType: s,
      resourceId: s,
      actor: obj(['type', 'id'], { type: s, id: s }),
      requestId: { type: ['string', 'null'] },
      idempotencyKey: { type: ['string', 'null'] },
      details: { type: 'object' },
    }),
    AuditPage: page('AuditEntry', 'auditEntries', {
      order: { type: 'string', enum: ['NEWEST_FIRST', 'OLDEST_FIRST'] },
      proof: obj(['digest', 'signature', 'keyId'], {
        type: s,
        digestAlgorithm: s,
        canonicalization: s,
        digest: s,
        signatureAlgorithm: s,
        keyId: s,
        signedFields: s,
        signature: s,
        signedAt: time,
      }),
    }),
    Info: obj(['clientId', 'tenant', 'environment'], {
      clientId: s,
      tenant: s,
      environment: s,
      purpose: s,
      owner: s,
      serverTime: time,
    }),
  };
}
