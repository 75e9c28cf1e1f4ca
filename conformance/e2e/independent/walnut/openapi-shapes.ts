// Per route of the URL conf: its operationId (drf-spectacular's view-name form), tag, response data
// schema, request body schema and shared parameters, all by component name.
/** Per route: its response data schema, request body schema and query parameters. */
export const SHAPES: Record<string, { data?: string; body?: string; params?: string[]; op: string; tag: string }> = {
  'GET ': { data: 'SelfDescription', op: 'api_root_retrieve', tag: 'meta' },
  'GET /providers': { data: 'ProviderList', params: ['category'], op: 'providers_list', tag: 'catalog' },
  'GET /connectors': {
    data: 'ConnectorList',
    params: ['capability', 'providerId', 'category'],
    op: 'connectors_list',
    tag: 'catalog',
  },
  'GET /capabilities': { data: 'CapabilityList', op: 'capabilities_list', tag: 'catalog' },
  'POST /capabilities': {
    data: 'CapabilityCheck',
    body: 'CapabilityCheckRequest',
    op: 'capabilities_check_create',
    tag: 'catalog',
  },
  'GET /connections': { data: 'ConnectionList', op: 'connections_list', tag: 'connections' },
  'POST /connections': { data: 'Connection', body: 'ConnectionRequest', op: 'connections_create', tag: 'connections' },
  'POST /idempotency-keys': {
    data: 'IdempotencyKey',
    body: 'IdempotencyKeyRequest',
    op: 'idempotency_keys_create',
    tag: 'connections',
  },
  'POST /webhooks': { data: 'Webhook', body: 'WebhookRequest', op: 'webhooks_create', tag: 'webhooks' },
  'GET /audit-log': {
    data: 'PaginatedAuditEntryList',
    params: ['Limit', 'Offset'],
    op: 'audit_log_list',
    tag: 'audit',
  },
  'GET /info': { data: 'Info', op: 'info_retrieve', tag: 'meta' },
  'GET /webhooks': { data: 'WebhookList', op: 'webhooks_list', tag: 'webhooks' },
  'GET /webhooks/{webhookId}': { data: 'Webhook', params: ['WebhookId'], op: 'webhooks_retrieve', tag: 'webhooks' },
  'DELETE /webhooks/{webhookId}': { data: 'Info', params: ['WebhookId'], op: 'webhooks_destroy', tag: 'webhooks' },
  'GET /webhooks/{webhookId}/deliveries': {
    data: 'PaginatedDeliveryList',
    params: ['WebhookId', 'DeliveryLimit', 'Offset', 'DeliveryStatus'],
    op: 'webhooks_deliveries_list',
    tag: 'webhooks',
  },
  'POST /webhooks/{webhookId}/deliveries/{deliveryId}/redeliver': {
    data: 'Delivery',
    params: ['WebhookId', 'DeliveryId'],
    op: 'webhooks_deliveries_redeliver_create',
    tag: 'webhooks',
  },
};
