// Palmetto's route table: one list the router dispatches, the self-description lists and the OpenAPI
// document describes, so the three never drift (Jersey's resource model, written out by hand).
import type { Audit } from './audit.ts';
import type { Auth } from './auth.ts';
import { ApiError, type Ctx, parseJson, type Rec } from './http.ts';
import type { Idempotency } from './idempotency.ts';
import { BODIES, type RouteDoc } from './openapi.ts';
import { info, openapiFile, selfDescription } from './public.ts';
import {
  checkCapability,
  createConnection,
  listCapabilities,
  listConnections,
  listConnectors,
  listProviders,
} from './resources.ts';
import type { Store } from './state.ts';
import type { Stream } from './stream.ts';
import type { Webhooks } from './webhooks.ts';

export interface Services {
  store: Store;
  auth: Auth;
  idem: Idempotency;
  stream: Stream;
  webhooks: Webhooks;
  audit: Audit;
}

export interface Route extends RouteDoc {
  handle: (ctx: Ctx, s: Services) => void;
}

const P = '/api/public/v1';

export function routes(): Route[] {
  const table: Route[] = [
    {
      method: 'GET',
      path: P,
      purpose: 'self-description',
      auth: false,
      handle: (c, s) => selfDescription(c, s, table),
    },
    {
      method: 'GET',
      path: `${P}/openapi.json`,
      purpose: 'OpenAPI 3.1 document',
      auth: false,
      handle: (c) => openapiFile(c, table, 'json'),
    },
    {
      method: 'GET',
      path: `${P}/openapi/{file}`,
      purpose: 'OpenAPI document per version (2026-07-01.json, 2026-07-01.yaml, 2026-06-12.json, ...)',
      auth: false,
      handle: (c) => openapiFile(c, table, 'file'),
    },
    {
      method: 'GET',
      path: `${P}/info`,
      purpose: 'who is calling: client, tenant, version',
      auth: true,
      handle: (c) => info(c),
    },
    {
      method: 'GET',
      path: `${P}/providers`,
      purpose: 'list providers',
      auth: true,
      query: ['category'],
      handle: (c) => listProviders(c),
    },
    {
      method: 'GET',
      path: `${P}/connectors`,
      purpose: 'list connectors',
      auth: true,
      query: ['capability', 'providerId', 'category'],
      handle: (c) => listConnectors(c),
    },
    {
      method: 'GET',
      path: `${P}/capabilities`,
      purpose: 'capability catalog',
      auth: true,
      handle: (c) => listCapabilities(c),
    },
    {
      method: 'POST',
      path: `${P}/capabilities`,
      purpose: 'check a capability of a connector',
      auth: true,
      body: BODIES.check,
      handle: (c) => checkCapability(c, parseJson(c)),
    },
    {
      method: 'GET',
      path: `${P}/connections`,
      purpose: 'connections of the tenant',
      auth: true,
      handle: (c, s) => listConnections(c, s.store),
    },
    {
      method: 'POST',
      path: `${P}/connections`,
      purpose: 'create a connection',
      auth: true,
      key: true,
      body: BODIES.connection,
      handle: (c, s) => {
        s.idem.key(c);
        c.body = parseJson(c);
        s.idem.run(c, 'connection.create', () =>
          createConnection(c, s.store, c.body ?? {}, (cx, conn) => onCreated(cx, s, conn)),
        );
      },
    },
    {
      method: 'POST',
      path: `${P}/idempotency-keys`,
      purpose: 'generate an idempotency key',
      auth: true,
      body: BODIES.key,
      handle: (c, s) => s.idem.generate(c, parseJson(c)),
    },
    {
      method: 'GET',
      path: `${P}/stream`,
      purpose: 'status stream (Server-Sent Events)',
      auth: false,
      query: ['cursor'],
      handle: () => undefined,
    },
    {
      method: 'POST',
      path: `${P}/webhooks`,
      purpose: 'create a webhook receiver',
      auth: true,
      key: true,
      body: BODIES.webhook,
      handle: (c, s) =>
        keyed(c, s, 'webhook.create', () =>
          audited(c, s, 'WEBHOOK_CREATED', 'webhook', s.webhooks.create(c, c.body ?? {})),
        ),
    },
    {
      method: 'DELETE',
      path: `${P}/webhooks/{id}`,
      purpose: 'remove a webhook receiver',
      auth: true,
      key: true,
      handle: (c, s) => {
        s.idem.key(c);
        s.idem.run(c, 'webhook.delete', () => audited(c, s, 'WEBHOOK_DELETED', 'webhook', s.webhooks.remove(c)));
      },
    },
    {
      method: 'GET',
      path: `${P}/webhook-deliveries`,
      purpose: 'delivery log of a webhook receiver',
      auth: true,
      query: ['webhookId'],
      handle: (c, s) => s.webhooks.log(c),
    },
    {
      method: 'POST',
      path: `${P}/webhook-deliveries/{deliveryId}/resend`,
      purpose: 'trigger a logged delivery again',
      auth: true,
      key: true,
      handle: (c, s) => {
        s.idem.key(c);
        s.idem.run(c, 'delivery.resend', () => audited(c, s, 'DELIVERY_RESENT', 'delivery', s.webhooks.resend(c)));
      },
    },
    {
      method: 'GET',
      path: `${P}/audit-log`,
      purpose: 'audit log with its hash chain and Merkle root',
      auth: true,
      query: ['limit', 'before'],
      handle: (c, s) => s.audit.list(c),
    },
  ];
  return table;
}

function keyed(c: Ctx, s: Services, operation: string, op: () => Rec): void {
  s.idem.key(c);
  c.body = parseJson(c);
  s.idem.run(c, operation, op);
}

function audited(c: Ctx, s: Services, action: string, type: string, data: Rec): Rec {
  s.audit.record(c, action, type, String(data.id));
  return data;
}

function onCreated(c: Ctx, s: Services, conn: Rec): void {
  s.audit.record(c, 'CONNECTION_CREATED', 'connection', String(conn.id));
  s.stream.publish(c.tenant, 'connection.created', { connectionId: conn.id, state: conn.state, connection: conn });
  s.webhooks.dispatch(c.tenant, 'connection.created', { connection: conn });
}

export function notFound(): never {
  throw new ApiError(404, 'not_found', 'HTTP 404 Not Found');
}
