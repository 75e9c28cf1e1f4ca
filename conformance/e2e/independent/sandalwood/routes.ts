// The route table: one row per route, read by the dispatcher, the self-description and the OpenAPI document.
import { listAudit } from './audit.ts';
import { type Call, PREFIX } from './http.ts';
import { createKey, once, readKey } from './idempotency.ts';
import {
  checkCapability,
  createConnection,
  getConnection,
  listCapabilities,
  listConnections,
  listConnectors,
  listProviders,
  validateCreation,
} from './resources.ts';
import type { State } from './state.ts';
import { openStream } from './stream.ts';
import {
  createWebhook,
  deleteWebhook,
  getWebhook,
  listDeliveries,
  listWebhooks,
  redeliver,
  validateWebhookBody,
} from './webhooks.ts';

export interface Ctx {
  state: State;
  call: Call;
  params: string[];
  body: Record<string, unknown>;
}

export interface Route {
  method: 'GET' | 'POST' | 'DELETE';
  path: string;
  purpose: string;
  auth: boolean;
  /** Idempotency-Key required. */
  key?: boolean;
  /** Takes a JSON body. */
  body?: boolean;
  operationId: string;
  /** Answers itself (stream, documents) when it returns nothing; otherwise the data is enveloped. */
  run: (ctx: Ctx) => unknown;
}

/** A modifying call: key read before the body is judged, the operation run once per key. */
const modifying =
  (op: (ctx: Ctx) => unknown, required: boolean, validate?: (ctx: Ctx) => void) =>
  (ctx: Ctx): undefined => {
    const key = readKey(ctx.call, required);
    validate?.(ctx);
    once(ctx.state, ctx.call, key, ctx.body, () => op(ctx));
    return undefined;
  };

const p = (s: string) => `${PREFIX}${s}`;
const param = (ctx: Ctx, i: number) => ctx.params[i] ?? '';

export const ROUTES: Route[] = [
  {
    method: 'GET',
    path: PREFIX,
    purpose: 'self-description',
    auth: false,
    operationId: 'describeService',
    run: () => 'self',
  },
  {
    method: 'GET',
    path: p('/openapi.json'),
    purpose: 'OpenAPI 3.1 document',
    auth: false,
    operationId: 'getOpenApi',
    run: () => 'doc',
  },
  {
    method: 'GET',
    path: p('/openapi.yaml'),
    purpose: 'OpenAPI 3.1 document as YAML',
    auth: false,
    operationId: 'getOpenApiYaml',
    run: () => 'doc',
  },
  {
    method: 'GET',
    path: p('/openapi/{version}/openapi.json'),
    purpose: 'download the OpenAPI 3.1 JSON file of one version',
    auth: false,
    operationId: 'downloadOpenApiJson',
    run: () => 'doc',
  },
  {
    method: 'GET',
    path: p('/openapi/{version}/openapi.yaml'),
    purpose: 'download the OpenAPI 3.1 YAML file of one version',
    auth: false,
    operationId: 'downloadOpenApiYaml',
    run: () => 'doc',
  },
  {
    method: 'GET',
    path: p('/info'),
    purpose: 'first call: who is calling, for which tenant and environment',
    auth: true,
    operationId: 'getInfo',
    run: ({ call, state }) => ({
      service: 'sandalwood',
      environment: 'sandbox',
      tenant: call.tenant,
      clientId: call.clientId,
      version: call.version,
      quota: { limit: state.options.rateLimit, windowSeconds: state.options.windowMs / 1000 },
    }),
  },
  {
    method: 'GET',
    path: p('/providers'),
    purpose: 'list providers',
    auth: true,
    operationId: 'listProviders',
    run: ({ call }) => listProviders(call),
  },
  {
    method: 'GET',
    path: p('/connectors'),
    purpose: 'list connectors',
    auth: true,
    operationId: 'listConnectors',
    run: ({ call }) => listConnectors(call),
  },
  {
    method: 'GET',
    path: p('/capabilities'),
    purpose: 'capability catalog',
    auth: true,
    operationId: 'listCapabilities',
    run: () => listCapabilities(),
  },
  {
    method: 'POST',
    path: p('/capabilities'),
    purpose: 'check a capability of a connector',
    auth: true,
    body: true,
    operationId: 'checkCapability',
    run: modifying(
      ({ body }) => checkCapability(body),
      false,
      ({ body }) => void checkCapability(body),
    ),
  },
  {
    method: 'GET',
    path: p('/connections'),
    purpose: 'connections of the tenant',
    auth: true,
    operationId: 'listConnections',
    run: ({ state, call }) => listConnections(state, call),
  },
  {
    method: 'POST',
    path: p('/connections'),
    purpose: 'create a connection',
    auth: true,
    key: true,
    body: true,
    operationId: 'createConnection',
    run: (ctx) => {
      const key = readKey(ctx.call, true);
      const input = validateCreation(ctx.body);
      once(ctx.state, ctx.call, key, ctx.body, () => createConnection(ctx.state, ctx.call, input));
      return undefined;
    },
  },
  {
    method: 'GET',
    path: p('/connections/{connectionId}'),
    purpose: 'get one connection of the tenant',
    auth: true,
    operationId: 'getConnection',
    run: (c) => getConnection(c.state, c.call, param(c, 0)),
  },
  {
    method: 'POST',
    path: p('/idempotency-keys'),
    purpose: 'generate an idempotency key',
    auth: true,
    body: true,
    operationId: 'createIdempotencyKey',
    run: modifying(
      ({ call, body }) => createKey(call, body),
      false,
      ({ call, body }) => void createKey(call, body),
    ),
  },
  {
    method: 'GET',
    path: p('/stream'),
    purpose: 'status stream (Server-Sent Events)',
    auth: false,
    operationId: 'streamStatus',
    run: ({ state, call }) => void openStream(state, call),
  },
  {
    method: 'POST',
    path: p('/webhooks'),
    purpose: 'create a webhook receiver; the signing key is issued once',
    auth: true,
    key: true,
    body: true,
    operationId: 'createWebhook',
    run: modifying(
      ({ state, call, body }) => createWebhook(state, call, body),
      true,
      ({ body }) => validateWebhookBody(body),
    ),
  },
  {
    method: 'GET',
    path: p('/webhooks'),
    purpose: 'list webhook receivers of the tenant',
    auth: true,
    operationId: 'listWebhooks',
    run: ({ state, call }) => listWebhooks(state, call),
  },
  {
    method: 'GET',
    path: p('/webhooks/{webhookId}'),
    purpose: 'get one webhook receiver',
    auth: true,
    operationId: 'getWebhook',
    run: (c) => getWebhook(c.state, c.call, param(c, 0)),
  },
  {
    method: 'DELETE',
    path: p('/webhooks/{webhookId}'),
    purpose: 'delete a webhook receiver',
    auth: true,
    key: true,
    operationId: 'deleteWebhook',
    run: modifying((c) => deleteWebhook(c.state, c.call, param(c, 0)), true),
  },
  {
    method: 'GET',
    path: p('/webhooks/{webhookId}/deliveries'),
    purpose: 'delivery log of a webhook receiver',
    auth: true,
    operationId: 'listWebhookDeliveries',
    run: (c) => listDeliveries(c.state, c.call, param(c, 0)),
  },
  {
    method: 'POST',
    path: p('/webhooks/{webhookId}/deliveries/{deliveryId}:redeliver'),
    purpose: 'trigger a logged delivery again',
    auth: true,
    key: true,
    operationId: 'redeliverWebhookDelivery',
    run: modifying((c) => redeliver(c.state, c.call, param(c, 0), param(c, 1)), true),
  },
  {
    method: 'GET',
    path: p('/audit-log'),
    purpose: 'audit log of the tenant with its hash-chain proof',
    auth: true,
    operationId: 'listAuditLog',
    run: ({ state, call }) => listAudit(state, call),
  },
];
