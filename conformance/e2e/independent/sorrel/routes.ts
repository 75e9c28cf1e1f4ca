// The route table: Javalin's `app.routes { ... }` as data, so the self-description and the OpenAPI document are
// generated from the same list the dispatcher matches (the team's habit with javalin-openapi annotations).
import { auditLog } from './audit.ts';
import type { Ctx } from './http.ts';
import { issueKey } from './idempotency.ts';
import { BODIES, DATA } from './openapi-schemas.ts';
import {
  capabilities,
  checkCapability,
  connectors,
  createConnection,
  listConnections,
  providers,
} from './resources.ts';
import type { Rec, Store } from './state.ts';
import { stream } from './stream.ts';
import { createWebhook, deleteWebhook, deliveryLog, listWebhooks, redeliver } from './webhooks.ts';

const { str, int, arr, ref, obj } = DATA;
const P = '/api/public/v1';

export interface Route {
  method: string;
  path: string;
  purpose: string;
  auth: boolean;
  key?: boolean;
  /** Query parameters: name to schema. */
  query?: Rec;
  body?: Rec;
  /** Schema of `data`. */
  data?: Rec;
  /** The first version offering it. */
  since?: string;
  sse?: boolean;
  handler?: (store: Store, ctx: Ctx) => void;
}

export const ROUTES: Route[] = [
  { method: 'GET', path: P, purpose: 'self-description', auth: false },
  { method: 'GET', path: `${P}/openapi.json`, purpose: 'OpenAPI 3.1 document', auth: false },
  {
    method: 'GET',
    path: `${P}/openapi/2026-07-01.json`,
    purpose: 'OpenAPI document of 2026-07-01 (JSON file)',
    auth: false,
  },
  {
    method: 'GET',
    path: `${P}/openapi/2026-07-01.yaml`,
    purpose: 'OpenAPI document of 2026-07-01 (YAML file)',
    auth: false,
  },
  {
    method: 'GET',
    path: `${P}/openapi/2026-06-12.json`,
    purpose: 'OpenAPI document of 2026-06-12 (JSON file)',
    auth: false,
  },
  {
    method: 'GET',
    path: `${P}/openapi/2026-06-12.yaml`,
    purpose: 'OpenAPI document of 2026-06-12 (YAML file)',
    auth: false,
  },
  { method: 'GET', path: `${P}/info`, purpose: 'who is calling: client, tenant, token expiry', auth: true },
  {
    method: 'GET',
    path: `${P}/providers`,
    purpose: 'list providers',
    auth: true,
    query: { category: str },
    data: obj({ count: int, providers: arr(ref('Provider')) }),
    handler: providers,
  },
  {
    method: 'GET',
    path: `${P}/connectors`,
    purpose: 'list connectors',
    auth: true,
    query: { capability: str, providerId: str, category: str },
    data: obj({ count: int, connectors: arr(ref('Connector')) }),
    handler: connectors,
  },
  {
    method: 'GET',
    path: `${P}/capabilities`,
    purpose: 'capability catalog',
    auth: true,
    data: obj({ count: int, capabilities: arr(ref('Capability')) }),
    handler: capabilities,
  },
  {
    method: 'POST',
    path: `${P}/capabilities`,
    purpose: 'check a capability of a connector',
    auth: true,
    body: BODIES.check,
    data: obj({ decision: ref('CapabilityDecision'), environment: ref('Environment') }),
    handler: checkCapability,
  },
  {
    method: 'GET',
    path: `${P}/connections`,
    purpose: 'connections of the tenant',
    auth: true,
    data: obj({ tenant: str, count: int, connections: arr(ref('Connection')) }),
    handler: listConnections,
  },
  {
    method: 'POST',
    path: `${P}/connections`,
    purpose: 'create a connection',
    auth: true,
    key: true,
    body: BODIES.connection,
    data: ref('Connection'),
    handler: createConnection,
  },
  {
    method: 'POST',
    path: `${P}/idempotency-keys`,
    purpose: 'generate an idempotency key',
    auth: true,
    body: BODIES.key,
    data: ref('IdempotencyKey'),
    handler: issueKey,
  },
  {
    method: 'GET',
    path: `${P}/stream`,
    purpose: 'status stream (Server-Sent Events)',
    auth: false,
    sse: true,
    query: { cursor: { type: 'integer', minimum: 0 } },
    handler: stream,
  },
  {
    method: 'GET',
    path: `${P}/webhooks`,
    purpose: 'list webhook receivers',
    auth: true,
    data: obj({ count: int, webhooks: arr(ref('Webhook')) }),
    handler: listWebhooks,
  },
  {
    method: 'POST',
    path: `${P}/webhooks`,
    purpose: 'create a webhook receiver (the signing key is returned once, as signingKey)',
    auth: true,
    key: true,
    body: BODIES.webhook,
    data: ref('Webhook'),
    handler: createWebhook,
  },
  {
    method: 'DELETE',
    path: `${P}/webhooks/{webhookId}`,
    purpose: 'remove a webhook receiver',
    auth: true,
    key: true,
    data: obj({ id: int, deleted: { type: 'boolean' } }),
    handler: deleteWebhook,
  },
  {
    method: 'GET',
    path: `${P}/webhooks/{webhookId}/delivery-attempts`,
    purpose: 'delivery log of a webhook receiver (newest first)',
    auth: true,
    since: '2026-07-01',
    data: obj({ webhookId: int, count: int, deliveries: arr(ref('Delivery')) }),
    handler: deliveryLog,
  },
  {
    method: 'POST',
    path: `${P}/webhooks/{webhookId}/delivery-attempts/{attemptId}/retry`,
    purpose: 'trigger a logged delivery again',
    auth: true,
    key: true,
    since: '2026-07-01',
    data: ref('Delivery'),
    handler: redeliver,
  },
  {
    method: 'GET',
    path: `${P}/audit-log`,
    purpose: 'audit log of the tenant with its hash chain (newest first, keyset paging by before)',
    auth: true,
    query: {
      limit: { type: 'integer', minimum: 1, maximum: 200, default: 50 },
      before: { type: 'integer', minimum: 1 },
    },
    data: obj(
      {
        tenant: str,
        count: int,
        total: int,
        limit: int,
        entries: arr(ref('AuditEntry')),
        proof: { type: 'object' },
        nextBefore: int,
        next: str,
      },
      ['tenant', 'count', 'entries', 'proof'],
    ),
    handler: auditLog,
  },
];

/** Matches a path template: `{name}` takes one segment. */
export function match(route: Route, method: string, path: string): Record<string, string> | undefined {
  if (route.method !== method) return undefined;
  const names: string[] = [];
  const re = new RegExp(
    `^${route.path.replace(/[.]/g, '\\.').replace(/\{(\w+)\}/g, (_m, n: string) => {
      names.push(n);
      return '([^/]+)';
    })}$`,
  );
  const m = re.exec(path);
  if (!m) return undefined;
  return Object.fromEntries(names.map((n, i) => [n, decodeURIComponent(m[i + 1] ?? '')]));
}
