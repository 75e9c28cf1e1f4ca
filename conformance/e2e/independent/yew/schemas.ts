// Component schemas of the OpenAPI document: the contract's resources (camelCase, as served) and yew's own.
const ref = (name: string) => ({ $ref: `#/components/schemas/${name}` });
const str = { type: 'string' };
const text = (min: number, max: number) => ({ type: 'string', minLength: min, maxLength: max });
const dateTime = { type: 'string', format: 'date-time' };
const obj = (required: string[], properties: Record<string, unknown>) => ({ type: 'object', required, properties });

export function SCHEMAS(environments: string[], capabilities: string[], events: string[]) {
  const env = { type: 'string', enum: environments };
  return {
    Meta: obj(['requestId', 'version', 'at'], {
      requestId: str,
      version: str,
      at: dateTime,
      idempotencyKey: str,
      replayed: { type: 'boolean' },
    }),
    SuccessEnvelope: obj(['ok', 'data', 'meta'], { ok: { const: true }, data: { type: 'object' }, meta: ref('Meta') }),
    Failure: obj(['ok', 'error', 'meta'], {
      ok: { const: false },
      error: obj(['code', 'message'], {
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
        message: str,
        detail: str,
        hint: str,
        status: { type: 'integer' },
        traceId: str,
        instance: str,
        errors: { type: 'object', additionalProperties: { type: 'array', items: str } },
      }),
      meta: ref('Meta'),
    }),
    RouteInfo: obj(['method', 'path', 'purpose', 'auth'], {
      method: str,
      path: str,
      purpose: str,
      auth: { type: 'boolean' },
    }),
    ServiceDescription: obj(['service', 'surface', 'version', 'authentication', 'idempotency', 'routes'], {
      service: str,
      surface: str,
      version: str,
      authentication: { type: 'object' },
      idempotency: { type: 'object' },
      routes: { type: 'array', items: ref('RouteInfo') },
    }),
    Provider: obj(['id', 'name', 'category', 'summary'], {
      id: str,
      name: str,
      category: str,
      summary: str,
      websiteUrl: str,
    }),
    Connector: obj(['id', 'providerId', 'name', 'category', 'capabilities'], {
      id: str,
      providerId: str,
      name: str,
      category: str,
      capabilities: { type: 'array', items: str },
      status: str,
    }),
    Capability: obj(['id', 'label', 'critical', 'idempotencyRequired'], {
      id: { type: 'string', examples: capabilities },
      label: str,
      critical: { type: 'boolean' },
      idempotencyRequired: { type: 'boolean' },
      description: str,
    }),
    CapabilityDecision: obj(['connectorId', 'capability', 'allowed', 'critical', 'idempotencyRequired', 'reason'], {
      connectorId: str,
      capability: str,
      allowed: { type: 'boolean' },
      critical: { type: 'boolean' },
      idempotencyRequired: { type: 'boolean' },
      reason: str,
    }),
    CapabilityCheckRequest: obj(['connectorId', 'capability'], {
      connectorId: text(2, 120),
      capability: text(2, 120),
      environment: { ...env, default: 'sandbox' },
    }),
    CapabilityCheckResult: obj(['decision', 'environment'], { decision: ref('CapabilityDecision'), environment: env }),
    Connection: obj(
      ['id', 'connectorId', 'environment', 'scopeLabel', 'state', 'capabilities', 'nextStep', 'createdAt'],
      {
        id: { type: 'string', format: 'uuid' },
        connectorId: str,
        environment: env,
        scopeLabel: str,
        state: { type: 'string', examples: ['pending', 'active'] },
        capabilities: {
          type: 'array',
          items: obj(['capability', 'critical', 'idempotencyRequired'], {
            capability: str,
            critical: { type: 'boolean' },
            idempotencyRequired: { type: 'boolean' },
          }),
        },
        nextStep: { type: 'string', examples: ['awaitActivation', 'none'] },
        createdAt: dateTime,
        updatedAt: dateTime,
      },
    ),
    CreateConnectionRequest: obj(['connectorId', 'environment', 'scopeLabel', 'capabilities'], {
      connectorId: text(2, 120),
      environment: env,
      scopeLabel: text(2, 120),
      capabilities: { type: 'array', minItems: 1, maxItems: 24, items: text(2, 120) },
    }),
    CreateIdempotencyKeyRequest: obj(['operation'], { operation: text(2, 80) }),
    IdempotencyKeyResult: obj(['idempotencyKey', 'operation', 'expiresAt'], {
      idempotencyKey: str,
      operation: str,
      expiresAt: dateTime,
    }),
    CreateWebhookRequest: obj(['url', 'events'], {
      url: { type: 'string', format: 'uri' },
      events: { type: 'array', minItems: 1, items: { type: 'string', enum: events } },
    }),
    Webhook: obj(['id', 'url', 'events', 'createdAt'], {
      id: { type: 'string', format: 'uuid' },
      url: str,
      events: { type: 'array', items: str },
      createdAt: dateTime,
      status: str,
    }),
    WebhookCreated: {
      allOf: [
        ref('Webhook'),
        obj(['signingKey'], {
          signingKey: { type: 'string', description: 'issued exactly once: store it at once' },
          signature: { type: 'object' },
          delivery: { type: 'object' },
        }),
      ],
    },
    Delivery: obj(['id', 'webhookId', 'eventId', 'eventType', 'status', 'attempts', 'createdAt'], {
      id: { type: 'string', format: 'uuid' },
      webhookId: str,
      eventId: str,
      eventType: str,
      status: { type: 'string', enum: ['pending', 'succeeded', 'failed'] },
      attempts: { type: 'integer' },
      responseStatusCode: { type: ['integer', 'null'] },
      createdAt: dateTime,
      lastAttemptAt: { type: ['string', 'null'] },
      redeliveryOf: { type: ['string', 'null'] },
    }),
    DeliveryPage: obj(['webhookId', '@odata.count', 'value'], {
      webhookId: str,
      '@odata.count': { type: 'integer' },
      value: { type: 'array', items: ref('Delivery') },
      '@odata.nextLink': str,
    }),
    AuditEntry: obj(
      ['sequence', 'id', 'occurredAt', 'actor', 'action', 'resourceType', 'resourceId', 'previousHash', 'hash'],
      {
        sequence: { type: 'integer' },
        id: str,
        occurredAt: dateTime,
        actor: str,
        action: str,
        resourceType: str,
        resourceId: str,
        idempotencyKey: str,
        previousHash: str,
        hash: str,
      },
    ),
    AuditPage: obj(['tenant', 'order', '@odata.count', 'value', 'proof'], {
      tenant: str,
      order: { type: 'string', enum: ['newestFirst', 'oldestFirst'] },
      '@odata.count': { type: 'integer' },
      value: { type: 'array', items: ref('AuditEntry') },
      '@odata.nextLink': str,
      proof: { type: 'object' },
    }),
    CloudEvent: obj(['specversion', 'id', 'source', 'type', 'time', 'data'], {
      specversion: { const: '1.0' },
      id: str,
      source: str,
      type: { type: 'string', enum: events },
      subject: str,
      time: dateTime,
      datacontenttype: str,
      data: { type: 'object' },
    }),
  };
}
