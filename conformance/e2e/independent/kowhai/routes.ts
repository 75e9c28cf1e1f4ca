// The route table (Express routers: a public one, then authenticate + rateLimit + the private one) and the
// self-description generated from it.
import { checkCapability, listCapabilities, listConnectors, listProviders } from './connections.ts';
import { KEY_PATTERN } from './idempotency.ts';
import type { Answer, App, Ctx } from './types.ts';
import { CURRENT_VERSION, PREFIX, VERSIONS } from './types.ts';
import { WEBHOOK_EVENTS } from './webhooks.ts';

export interface Route {
  method: 'GET' | 'POST' | 'DELETE';
  path: string;
  purpose: string;
  auth: boolean;
  key: 'required' | 'optional' | 'none';
  handler?: (ctx: Ctx) => Answer;
  regex: RegExp;
  names: string[];
}

function route(
  method: Route['method'],
  path: string,
  purpose: string,
  auth: boolean,
  key: Route['key'],
  handler?: (ctx: Ctx) => Answer,
): Route {
  const names: string[] = [];
  const source = path.replace(/[.]/g, '\\.').replace(/\{(\w+)\}/g, (_m, n: string) => {
    names.push(n);
    return '([^/]+)';
  });
  // Express's default routing: case-insensitive, a trailing slash is the same route.
  return { method, path, purpose, auth, key, handler, regex: new RegExp(`^${source}/?$`, 'i'), names };
}

export function buildRoutes(app: App): Route[] {
  const p = PREFIX;
  return [
    route('GET', p, 'self-description', false, 'none'),
    route('GET', `${p}/openapi.json`, 'OpenAPI 3.1 document', false, 'none'),
    route('GET', `${p}/openapi/{file}`, 'downloadable OpenAPI file per version (JSON or YAML)', false, 'none'),
    route('GET', `${p}/info`, 'service information', false, 'none'),
    route('GET', `${p}/stream`, 'status stream (Server-Sent Events)', false, 'none'),
    route('GET', `${p}/providers`, 'list providers', true, 'none', listProviders),
    route('GET', `${p}/connectors`, 'list connectors', true, 'none', listConnectors),
    route('GET', `${p}/capabilities`, 'capability catalog', true, 'none', listCapabilities),
    route('POST', `${p}/capabilities`, 'check a capability of a connector', true, 'optional', checkCapability),
    route('GET', `${p}/connections`, 'connections of the tenant', true, 'none', (c) => app.connections.list(c)),
    route('POST', `${p}/connections`, 'create a connection', true, 'required', (c) => app.connections.create(c)),
    route('GET', `${p}/connections/{connectionId}`, 'one connection of the tenant', true, 'none', (c) =>
      app.connections.get(c),
    ),
    route('POST', `${p}/idempotency-keys`, 'generate an idempotency key', true, 'optional', (c) =>
      app.idempotency.issue(c),
    ),
    route('GET', `${p}/webhooks`, 'webhook receivers of the tenant', true, 'none', (c) => app.webhooks.list(c)),
    route('POST', `${p}/webhooks`, 'create a webhook receiver', true, 'required', (c) => app.webhooks.create(c)),
    route('GET', `${p}/webhooks/{webhookId}`, 'one webhook receiver', true, 'none', (c) => app.webhooks.get(c)),
    route('DELETE', `${p}/webhooks/{webhookId}`, 'remove a webhook receiver', true, 'required', (c) =>
      app.webhooks.remove(c),
    ),
    route('GET', `${p}/webhooks/{webhookId}/deliveries`, 'delivery log of a webhook receiver', true, 'none', (c) =>
      app.webhooks.log(c),
    ),
    route('GET', `${p}/webhooks/{webhookId}/deliveries/{deliveryId}`, 'one logged delivery', true, 'none', (c) =>
      app.webhooks.one(c),
    ),
    route(
      'POST',
      `${p}/webhooks/{webhookId}/deliveries/{deliveryId}/retry`,
      'trigger a logged delivery again',
      true,
      'required',
      (c) => app.webhooks.retry(c),
    ),
    route('GET', `${p}/audit-log`, 'audit log of the tenant with a proof of integrity', true, 'none', (c) => ({
      data: app.audit.page(c, app.settings.auditOrder),
    })),
  ];
}

export function selfDescription(app: App, routes: Route[], origin: string) {
  return {
    service: 'kowhai',
    surface: 'public',
    version: CURRENT_VERSION,
    versions: VERSIONS,
    authentication: {
      type: 'oauth2',
      flows: ['client_credentials'],
      tokenEndpoint: `${origin}${app.tokenPath}`,
      tokenEndpointAuthMethods: ['client_secret_basic', 'client_secret_post'],
      headers: { authorization: 'Bearer <access token>', tenant: 'x-service-tenant' },
    },
    idempotency: {
      header: 'Idempotency-Key',
      pattern: KEY_PATTERN.source,
      requiredOn: routes.filter((r) => r.key === 'required').map((r) => `${r.method} ${r.path}`),
      validityHours: app.settings.idempotencyTtlHours,
    },
    webhooks: { events: WEBHOOK_EVENTS, signatureHeader: 'Kowhai-Signature', deliveryIdHeader: 'Kowhai-Delivery' },
    openapi: {
      document: `${PREFIX}/openapi.json`,
      files: VERSIONS.flatMap((v) => [`${PREFIX}/openapi/${v}.json`, `${PREFIX}/openapi/${v}.yaml`]),
    },
    routes: routes.map((r) => ({ method: r.method, path: r.path, purpose: r.purpose, auth: r.auth })),
  };
}
