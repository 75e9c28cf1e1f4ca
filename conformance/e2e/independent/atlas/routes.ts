// The atlas route table: the interface's endpoints plus our own additions (info, webhook management, delivery log).
import { randomBytes } from 'node:crypto';
import type { AuditLog } from './audit.ts';
import { CAPABILITIES, CONNECTORS, decide, PROVIDERS } from './catalog.ts';
import type { Connections } from './connections.ts';
import { ApiError, type Ctx, isoTime } from './http-util.ts';
import type { Access, OAuthClient } from './oauth.ts';
import { WEBHOOK_ROUTES } from './routes-webhooks.ts';
import { environment, onlyFields, text, textList } from './validate.ts';
import type { Webhooks } from './webhooks.ts';

export type Call = {
  ctx: Ctx;
  access: Access;
  client: OAuthClient;
  tenant: string;
  body: Record<string, unknown>;
  params: Record<string, string>;
};
export type Services = { connections: Connections; webhooks: Webhooks; audit: AuditLog };
export type Route = {
  method: 'GET' | 'POST' | 'DELETE';
  path: string;
  auth: boolean;
  keyed: boolean;
  purpose: string;
  scope?: string;
  since?: string;
  /** Our own additions are described too, but flagged. */
  extension?: boolean;
  handler?: (call: Call, s: Services) => unknown;
  onReplay?: (data: unknown) => unknown;
};

const P = '/api/public/v1';
const q = (call: Call, name: string): string | null => call.ctx.url.searchParams.get(name);

function auditLimit(raw: string | null): number {
  if (raw === null) return 50;
  if (!/^[0-9]{1,4}$/.test(raw) || Number(raw) < 1 || Number(raw) > 200) {
    throw new ApiError('invalid_request', 'limit must be a whole number from 1 to 200');
  }
  return Number(raw);
}

export const ROUTES: Route[] = [
  { method: 'GET', path: P, auth: false, keyed: false, purpose: 'Self-description of the interface' },
  { method: 'GET', path: `${P}/openapi.json`, auth: false, keyed: false, purpose: 'OpenAPI 3.1 document (JSON)' },
  {
    method: 'GET',
    path: `${P}/openapi.yaml`,
    auth: false,
    keyed: false,
    purpose: 'OpenAPI 3.1 document (YAML)',
    extension: true,
  },
  {
    method: 'GET',
    path: `${P}/info`,
    auth: true,
    keyed: false,
    purpose: 'Who am I: client, tenant, environment, expiry',
    extension: true,
    handler: (c) => ({
      clientId: c.client.clientId,
      tenant: c.tenant,
      environment: c.access.environment,
      scopes: c.access.scopes,
      tokenExpiresAt: isoTime(new Date(c.access.expiresAtMs)),
      purpose: c.client.purpose,
      owner: c.client.owner,
      credentialExpiresAt: c.client.expiresAt,
    }),
  },
  {
    method: 'GET',
    path: `${P}/providers`,
    auth: true,
    keyed: false,
    scope: 'catalog:read',
    purpose: 'List providers',
    handler: (c) => {
      const category = q(c, 'category');
      const providers = PROVIDERS.filter((p) => category === null || p.category === category);
      return { count: providers.length, providers };
    },
  },
  {
    method: 'GET',
    path: `${P}/connectors`,
    auth: true,
    keyed: false,
    scope: 'catalog:read',
    purpose: 'List connectors',
    handler: (c) => {
      const [cap, prov, cat] = [q(c, 'capability'), q(c, 'providerId'), q(c, 'category')];
      const connectors = CONNECTORS.filter(
        (x) =>
          (cap === null || x.capabilities.includes(cap)) &&
          (prov === null || x.providerId === prov) &&
          (cat === null || x.category === cat),
      );
      return { count: connectors.length, connectors };
    },
  },
  {
    method: 'GET',
    path: `${P}/capabilities`,
    auth: true,
    keyed: false,
    scope: 'catalog:read',
    purpose: 'Capability catalog',
    handler: () => ({
      count: CAPABILITIES.length,
      capabilities: CAPABILITIES.map(({ restrictedIn, ...rest }) => ({
        ...rest,
        restrictedEnvironments: restrictedIn,
      })),
    }),
  },
  {
    method: 'POST',
    path: `${P}/capabilities`,
    auth: true,
    keyed: false,
    scope: 'catalog:read',
    purpose: 'Check a capability of a connector',
    handler: (c) => {
      const connectorId = text(c.body, 'connectorId', 2, 120);
      const capability = text(c.body, 'capability', 2, 120);
      const env = environment(c.body, 'environment', 'sandbox');
      const connector = CONNECTORS.find((x) => x.id === connectorId);
      if (connector === undefined)
        throw new ApiError('not_found', 'connector not found', { hint: 'see GET /api/public/v1/connectors' });
      return { decision: decide(connector, capability, env), environment: env };
    },
  },
  {
    method: 'GET',
    path: `${P}/connections`,
    auth: true,
    keyed: false,
    scope: 'connections:read',
    purpose: 'Connections of the tenant',
    handler: (c, s) => {
      const connections = s.connections.list(c.tenant);
      return { tenant: c.tenant, count: connections.length, connections };
    },
  },
  {
    method: 'POST',
    path: `${P}/connections`,
    auth: true,
    keyed: true,
    scope: 'connections:write',
    purpose: 'Create a connection',
    handler: (c, s) => {
      onlyFields(c.body, ['connectorId', 'environment', 'scopeLabel', 'capabilities']);
      const input = {
        connectorId: text(c.body, 'connectorId', 2, 120),
        environment: environment(c.body, 'environment'),
        scopeLabel: text(c.body, 'scopeLabel', 2, 120),
        capabilities: textList(c.body, 'capabilities', 1, 24, 2, 120),
      };
      const created = s.connections.create(c.tenant, input);
      s.audit.record(c.tenant, c.client.clientId, 'CONNECTION_CREATE', 'connection', created.id, c.ctx.requestId);
      return created;
    },
  },
  {
    method: 'POST',
    path: `${P}/idempotency-keys`,
    auth: true,
    keyed: false,
    scope: 'connections:write',
    purpose: 'Generate an idempotency key',
    handler: (c) => {
      const operation = text(c.body, 'operation', 2, 80);
      return {
        idempotencyKey: `ik_${randomBytes(16).toString('hex')}`,
        operation,
        expiresAt: isoTime(new Date(Date.now() + 86400000)),
      };
    },
  },
  { method: 'GET', path: `${P}/stream`, auth: false, keyed: false, purpose: 'Status stream (Server-Sent Events)' },
  ...WEBHOOK_ROUTES,
  {
    method: 'GET',
    path: `${P}/audit-log`,
    auth: true,
    keyed: false,
    scope: 'audit:read',
    purpose: 'Audit log of the tenant with an integrity proof',
    handler: (c, s) => s.audit.page(c.tenant, auditLimit(q(c, 'limit')), q(c, 'pageToken')),
  },
];

export function matchRoute(
  method: string,
  path: string,
): { route?: Route; params: Record<string, string>; pathKnown: boolean } {
  let pathKnown = false;
  for (const route of ROUTES) {
    const names: string[] = [];
    const re = new RegExp(
      `^${route.path.replace(/[.]/g, '\\.').replace(/\{(\w+)\}/g, (_, n: string) => {
        names.push(n);
        return '([^/]+)';
      })}$`,
    );
    const m = re.exec(path);
    if (m === null) continue;
    pathKnown = true;
    if (route.method !== method) continue;
    const params: Record<string, string> = {};
    names.forEach((n, i) => {
      params[n] = decodeURIComponent(m[i + 1] ?? '');
    });
    return { route, params, pathKnown };
  }
  return { params: {}, pathKnown };
}
