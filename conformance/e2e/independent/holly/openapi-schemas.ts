// Component schemas of the OpenAPI document, in protoc-gen-openapiv2 naming (v1*, rpc*, protobuf*).
// int64 fields are strings (proto3 JSON), bytes are base64 strings.
const ref = (name: string) => ({ $ref: `#/components/schemas/${name}` });
const str = { type: 'string' };
const time = { type: 'string', format: 'date-time' };
const int64String = { type: 'string', format: 'int64', pattern: '^[0-9]+$' };
const bytes = { type: 'string', format: 'byte', contentEncoding: 'base64' };
const len = (min: number, max: number) => ({ type: 'string', minLength: min, maxLength: max });
const obj = (properties: Record<string, object>, required: string[] = []) => ({ type: 'object', properties, required });
const list = (items: object) => ({ type: 'array', items });

export const text = (s: string) => JSON.stringify(s);

/** int64Numbers: the audit proof's int64 fields served as JSON numbers (holly's auditInt64Numbers variant). */
export function schemas(environments: string[], events: string[], int64Numbers = false) {
  const int64 = int64Numbers ? { type: 'integer', format: 'int64', minimum: 0 } : int64String;
  const env = { type: 'string', enum: environments };
  return {
    protobufAny: { type: 'object', properties: { '@type': str }, additionalProperties: {} },
    protobufEmpty: { type: 'object' },
    v1Meta: obj({ requestId: str, version: str, at: time, idempotencyKey: str, replayed: { type: 'boolean' } }, [
      'requestId',
      'version',
      'at',
    ]),
    v1Error: obj(
      {
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
        status: { type: 'string', description: 'google.rpc.Code name' },
        details: list(ref('protobufAny')),
      },
      ['code', 'message'],
    ),
    v1FailureEnvelope: obj({ ok: { type: 'boolean', const: false }, error: ref('v1Error'), meta: ref('v1Meta') }, [
      'ok',
      'error',
      'meta',
    ]),
    v1RouteInfo: obj({ method: str, path: str, purpose: str, auth: { type: 'boolean' } }, [
      'method',
      'path',
      'purpose',
      'auth',
    ]),
    v1Description: obj(
      {
        service: str,
        surface: str,
        version: str,
        authentication: { type: 'object', additionalProperties: {} },
        idempotency: { type: 'object', additionalProperties: {} },
        webhooks: obj({ events: list({ type: 'string', enum: events }), signatureHeader: str }),
        routes: list(ref('v1RouteInfo')),
      },
      ['service', 'surface', 'version', 'authentication', 'idempotency', 'routes'],
    ),
    v1CallerInfo: obj({ tenant: str, client: str, environment: env, purpose: str, owner: str, accessExpiresAt: time }),
    v1Provider: obj({ id: str, name: str, category: str, summary: str }, ['id', 'name', 'category', 'summary']),
    v1Connector: obj({ id: str, providerId: str, name: str, category: str, capabilities: list(str) }, [
      'id',
      'providerId',
      'name',
      'category',
      'capabilities',
    ]),
    v1Capability: obj(
      { id: str, label: str, critical: { type: 'boolean' }, idempotencyRequired: { type: 'boolean' } },
      ['id', 'label', 'critical', 'idempotencyRequired'],
    ),
    v1ListProvidersResponse: obj({ count: { type: 'integer' }, providers: list(ref('v1Provider')) }, [
      'count',
      'providers',
    ]),
    v1ListConnectorsResponse: obj({ count: { type: 'integer' }, connectors: list(ref('v1Connector')) }, [
      'count',
      'connectors',
    ]),
    v1ListCapabilitiesResponse: obj({ count: { type: 'integer' }, capabilities: list(ref('v1Capability')) }, [
      'count',
      'capabilities',
    ]),
    v1CheckCapabilityRequest: {
      ...obj({ connectorId: len(2, 120), capability: len(2, 120), environment: { ...env, default: 'sandbox' } }, [
        'connectorId',
        'capability',
      ]),
      additionalProperties: false,
    },
    v1CapabilityDecision: obj(
      {
        connectorId: str,
        capability: str,
        allowed: { type: 'boolean' },
        critical: { type: 'boolean' },
        idempotencyRequired: { type: 'boolean' },
        reason: str,
      },
      ['connectorId', 'capability', 'allowed', 'critical', 'idempotencyRequired', 'reason'],
    ),
    v1CheckCapabilityResponse: obj({ decision: ref('v1CapabilityDecision'), environment: env }, [
      'decision',
      'environment',
    ]),
    v1ConnectionCapability: obj(
      { capability: str, critical: { type: 'boolean' }, idempotencyRequired: { type: 'boolean' } },
      ['capability', 'critical', 'idempotencyRequired'],
    ),
    v1Connection: obj(
      {
        id: str,
        name: { type: 'string', description: 'resource name connections/{id}' },
        connectorId: str,
        environment: env,
        scopeLabel: str,
        state: { type: 'string', enum: ['PROVISIONING', 'ACTIVE'] },
        capabilities: list(ref('v1ConnectionCapability')),
        nextStep: { type: 'string', enum: ['AWAIT_ACTIVATION', 'NONE'] },
        createdAt: time,
        updateTime: time,
      },
      ['id', 'connectorId', 'environment', 'scopeLabel', 'state', 'capabilities', 'nextStep', 'createdAt'],
    ),
    v1CreateConnectionRequest: {
      ...obj(
        {
          connectorId: len(2, 120),
          environment: env,
          scopeLabel: len(2, 120),
          capabilities: { ...list(len(2, 120)), minItems: 1, maxItems: 24 },
        },
        ['connectorId', 'environment', 'scopeLabel', 'capabilities'],
      ),
      additionalProperties: false,
    },
    v1ListConnectionsResponse: obj(
      { tenant: str, count: { type: 'integer' }, connections: list(ref('v1Connection')) },
      ['tenant', 'count', 'connections'],
    ),
    v1CreateIdempotencyKeyRequest: { ...obj({ operation: len(2, 80) }, ['operation']), additionalProperties: false },
    v1IdempotencyKey: obj({ idempotencyKey: str, operation: str, expiresAt: time }, [
      'idempotencyKey',
      'operation',
      'expiresAt',
    ]),
    v1CreateWebhookRequest: {
      ...obj(
        {
          url: { type: 'string', format: 'uri', maxLength: 2048 },
          events: { ...list({ type: 'string', enum: events }), minItems: 1 },
        },
        ['url', 'events'],
      ),
      additionalProperties: false,
    },
    v1Webhook: obj({
      name: str,
      id: str,
      url: str,
      events: list({ type: 'string', enum: events }),
      state: { type: 'string', enum: ['ACTIVE'] },
      createTime: time,
    }),
    v1CreatedWebhook: {
      allOf: [
        ref('v1Webhook'),
        obj({ signingKey: { type: 'string', description: 'HMAC-SHA256 key, shown once' } }, ['signingKey']),
      ],
    },
    v1ListWebhooksResponse: obj({ webhooks: list(ref('v1Webhook')), nextPageToken: str }),
    v1DeliveryAttempt: obj({
      attempt: { type: 'integer' },
      trigger: { type: 'string', enum: ['AUTOMATIC', 'MANUAL'] },
      time,
      httpStatus: { type: 'integer' },
      outcome: { type: 'string', enum: ['SUCCEEDED', 'FAILED'] },
      error: str,
    }),
    v1Delivery: obj({
      name: str,
      id: str,
      webhookId: str,
      eventId: str,
      event: { type: 'string', enum: events },
      state: { type: 'string', enum: ['PENDING', 'SUCCEEDED', 'FAILED'] },
      attempts: list(ref('v1DeliveryAttempt')),
      attemptCount: { type: 'integer' },
      createTime: time,
    }),
    v1RetryDeliveryRequest: { type: 'object', additionalProperties: false },
    v1ListDeliveriesResponse: obj({
      deliveries: list(ref('v1Delivery')),
      nextPageToken: str,
      totalSize: { type: 'integer' },
    }),
    v1InclusionProof: obj({ leafIndex: int64, treeSize: int64, inclusionPath: list(bytes) }),
    v1AuditEntry: obj({
      name: str,
      sequence: int64String,
      createTime: time,
      tenant: str,
      actor: str,
      action: {
        type: 'string',
        enum: ['CREATE_CONNECTION', 'ACTIVATE_CONNECTION', 'CREATE_WEBHOOK', 'DELETE_WEBHOOK', 'RETRY_DELIVERY'],
      },
      resource: str,
      leafHash: bytes,
      inclusionProof: ref('v1InclusionProof'),
    }),
    v1TreeHead: obj({
      treeSize: int64,
      rootHash: bytes,
      hashAlgorithm: str,
      scheme: str,
      leafInput: str,
      encoding: str,
    }),
    v1ListAuditEntriesResponse: obj({
      entries: list(ref('v1AuditEntry')),
      treeHead: ref('v1TreeHead'),
      nextPageToken: str,
      totalSize: { type: 'integer' },
    }),
  };
}
