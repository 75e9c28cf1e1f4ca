// The transcoding table (like google.api.http rules): HTTP method and path template -> RPC.
export interface Route {
  method: string;
  path: string;
  rpc: string;
  purpose: string;
  auth: boolean;
  key: boolean;
}

const P = '/api/public/v1';

export const ROUTES: Route[] = [
  { method: 'GET', path: P, rpc: 'DiscoveryService.Describe', purpose: 'self-description', auth: false, key: false },
  {
    method: 'GET',
    path: `${P}/openapi.json`,
    rpc: 'DiscoveryService.GetOpenApi',
    purpose: 'OpenAPI 3.1 document',
    auth: false,
    key: false,
  },
  {
    method: 'GET',
    path: `${P}/openapi.yaml`,
    rpc: 'DiscoveryService.GetOpenApiYaml',
    purpose: 'OpenAPI 3.1 document as YAML',
    auth: false,
    key: false,
  },
  {
    method: 'GET',
    path: `${P}/providers`,
    rpc: 'ProviderService.ListProviders',
    purpose: 'list providers',
    auth: true,
    key: false,
  },
  {
    method: 'GET',
    path: `${P}/connectors`,
    rpc: 'ConnectorService.ListConnectors',
    purpose: 'list connectors',
    auth: true,
    key: false,
  },
  {
    method: 'GET',
    path: `${P}/capabilities`,
    rpc: 'CapabilityService.ListCapabilities',
    purpose: 'capability catalog',
    auth: true,
    key: false,
  },
  {
    method: 'POST',
    path: `${P}/capabilities`,
    rpc: 'CapabilityService.CheckCapability',
    purpose: 'check a capability of a connector',
    auth: true,
    key: false,
  },
  {
    method: 'GET',
    path: `${P}/connections`,
    rpc: 'ConnectionService.ListConnections',
    purpose: 'connections of the tenant',
    auth: true,
    key: false,
  },
  {
    method: 'POST',
    path: `${P}/connections`,
    rpc: 'ConnectionService.CreateConnection',
    purpose: 'create a connection',
    auth: true,
    key: true,
  },
  {
    method: 'GET',
    path: `${P}/connections/{connectionId}`,
    rpc: 'ConnectionService.GetConnection',
    purpose: 'one connection of the tenant',
    auth: true,
    key: false,
  },
  {
    method: 'POST',
    path: `${P}/idempotency-keys`,
    rpc: 'IdempotencyService.CreateIdempotencyKey',
    purpose: 'generate an idempotency key',
    auth: true,
    key: false,
  },
  {
    method: 'GET',
    path: `${P}/stream`,
    rpc: 'StatusService.StreamStatus',
    purpose: 'status stream (Server-Sent Events)',
    auth: false,
    key: false,
  },
  {
    method: 'POST',
    path: `${P}/webhooks`,
    rpc: 'WebhookService.CreateWebhook',
    purpose: 'create a webhook receiver',
    auth: true,
    key: true,
  },
  {
    method: 'GET',
    path: `${P}/webhooks`,
    rpc: 'WebhookService.ListWebhooks',
    purpose: 'webhook receivers of the tenant',
    auth: true,
    key: false,
  },
  {
    method: 'GET',
    path: `${P}/webhooks/{webhookId}`,
    rpc: 'WebhookService.GetWebhook',
    purpose: 'one webhook receiver',
    auth: true,
    key: false,
  },
  {
    method: 'DELETE',
    path: `${P}/webhooks/{webhookId}`,
    rpc: 'WebhookService.DeleteWebhook',
    purpose: 'remove a webhook receiver',
    auth: true,
    key: true,
  },
  {
    method: 'GET',
    path: `${P}/webhooks/{webhookId}/deliveries`,
    rpc: 'WebhookService.ListDeliveries',
    purpose: 'delivery log of a receiver',
    auth: true,
    key: false,
  },
  {
    method: 'POST',
    path: `${P}/webhooks/{webhookId}/deliveries/{deliveryId}:retry`,
    rpc: 'WebhookService.RetryDelivery',
    purpose: 'trigger a logged delivery again',
    auth: true,
    key: true,
  },
  {
    method: 'GET',
    path: `${P}/audit-log`,
    rpc: 'AuditService.ListAuditEntries',
    purpose: 'audit log with RFC 9162 Merkle proofs',
    auth: true,
    key: false,
  },
  {
    method: 'GET',
    path: `${P}/info`,
    rpc: 'DiscoveryService.GetCallerInfo',
    purpose: 'the calling access and tenant',
    auth: true,
    key: false,
  },
];

/** Matches a path against the templates; a {param} is one segment, and ":verb" suffixes are literal. */
export function match(method: string, pathname: string): { route: Route; params: string[] } | 'method' | undefined {
  let pathHit = false;
  for (const route of ROUTES) {
    const re = new RegExp(`^${route.path.replace(/[.]/g, '\\.').replace(/\{[^}]+\}/g, '([^/:]+)')}$`);
    const m = re.exec(pathname);
    if (!m) continue;
    pathHit = true;
    if (route.method === method) return { route, params: m.slice(1).map((s) => decodeURIComponent(s)) };
  }
  return pathHit ? 'method' : undefined;
}
