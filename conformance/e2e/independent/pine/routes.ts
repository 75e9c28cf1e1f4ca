// The router: one table feeds the dispatcher, the self-description and the OpenAPI document, so the three
// cannot disagree. `key`: required (428 without it), optional (honoured when sent), none (ignored).
import { readAudit } from './audit.ts';
import { checkCapability, info, listCapabilities, listConnectors, listProviders } from './catalog.ts';
import { connectionAction, createConnection, listConnections, showConnection } from './connections.ts';
import type { Answer, Ctx } from './http-kit.ts';
import { issueKeyAnswer } from './idempotency.ts';
import { selfDescription } from './self-description.ts';
import type { PineState } from './state.ts';
import type { Feeds } from './stream.ts';
import {
  deleteWebhook,
  listDeliveries,
  listWebhooks,
  registerWebhook,
  replayDelivery,
  showDelivery,
  showWebhook,
} from './webhooks.ts';

export interface App {
  state: PineState;
  feeds: Feeds;
}

export interface Route {
  method: 'GET' | 'POST' | 'DELETE';
  path: string;
  purpose: string;
  auth: boolean;
  key: 'required' | 'optional' | 'none';
  /** One of the interface's own routes (the rest are this deployment's additions). */
  contract: boolean;
  /** Public routes with their own writer (the stream, the OpenAPI document) leave run undefined. */
  run?: (ctx: Ctx, app: App) => Answer;
  pattern: RegExp;
  names: string[];
}

const P = '/api/public/v1';

function route(r: Omit<Route, 'pattern' | 'names'>): Route {
  const names: string[] = [];
  const source = r.path.replace(/\{(\w+)\}/g, (_m, name: string) => {
    names.push(name);
    return '([^/]+)';
  });
  return { ...r, pattern: new RegExp(`^${source}$`), names };
}

export const ROUTES: Route[] = [
  route({
    method: 'GET',
    path: P,
    purpose: 'self-description',
    auth: false,
    key: 'none',
    contract: true,
    run: (ctx) => selfDescription(ctx),
  }),
  route({
    method: 'GET',
    path: `${P}/openapi.json`,
    purpose: 'OpenAPI 3.1 document',
    auth: false,
    key: 'none',
    contract: true,
  }),
  route({
    method: 'GET',
    path: `${P}/openapi/{version}`,
    purpose: 'OpenAPI 3.1 document of one version, as a JSON download',
    auth: false,
    key: 'none',
    contract: false,
  }),
  route({
    method: 'GET',
    path: `${P}/info`,
    purpose: 'the calling access, tenant and environment',
    auth: true,
    key: 'none',
    contract: false,
    run: (ctx, app) =>
      info(ctx, app.state.tokens.get((ctx.req.headers.authorization ?? '').replace(/^Bearer\s+/i, ''))?.expiresAt),
  }),
  route({
    method: 'GET',
    path: `${P}/providers`,
    purpose: 'list providers',
    auth: true,
    key: 'none',
    contract: true,
    run: (ctx) => listProviders(ctx),
  }),
  route({
    method: 'GET',
    path: `${P}/connectors`,
    purpose: 'list connectors',
    auth: true,
    key: 'none',
    contract: true,
    run: (ctx) => listConnectors(ctx),
  }),
  route({
    method: 'GET',
    path: `${P}/capabilities`,
    purpose: 'capability catalog',
    auth: true,
    key: 'none',
    contract: true,
    run: () => listCapabilities(),
  }),
  route({
    method: 'POST',
    path: `${P}/capabilities`,
    purpose: 'check a capability of a connector',
    auth: true,
    key: 'optional',
    contract: true,
    run: (ctx) => checkCapability(ctx),
  }),
  route({
    method: 'GET',
    path: `${P}/connections`,
    purpose: 'connections of the tenant',
    auth: true,
    key: 'none',
    contract: true,
    run: (ctx, app) => listConnections(ctx, app.state),
  }),
  route({
    method: 'POST',
    path: `${P}/connections`,
    purpose: 'create a connection',
    auth: true,
    key: 'required',
    contract: true,
    run: (ctx, app) => createConnection(ctx, app.state, app.feeds),
  }),
  route({
    method: 'GET',
    path: `${P}/connections/{id}`,
    purpose: 'one connection of the tenant',
    auth: true,
    key: 'none',
    contract: false,
    run: (ctx, app) => showConnection(ctx, app.state),
  }),
  ...['pause', 'resume', 'revoke'].map((action) =>
    route({
      method: 'POST',
      path: `${P}/connections/{id}/${action}`,
      purpose: `${action} a connection`,
      auth: true,
      key: 'required',
      contract: false,
      run: (ctx, app) => connectionAction({ ...ctx, params: { ...ctx.params, action } }, app.state, app.feeds),
    }),
  ),
  route({
    method: 'POST',
    path: `${P}/idempotency-keys`,
    purpose: 'generate an idempotency key',
    auth: true,
    key: 'optional',
    contract: true,
    run: (ctx, app) => issueKeyAnswer(ctx, app.state),
  }),
  route({
    method: 'GET',
    path: `${P}/stream`,
    purpose: 'status stream (Server-Sent Events)',
    auth: false,
    key: 'none',
    contract: true,
  }),
  route({
    method: 'POST',
    path: `${P}/webhooks`,
    purpose: 'create a webhook receiver',
    auth: true,
    key: 'required',
    contract: true,
    run: (ctx, app) => registerWebhook(ctx, app.state),
  }),
  route({
    method: 'GET',
    path: `${P}/webhooks`,
    purpose: 'webhook receivers of the tenant',
    auth: true,
    key: 'none',
    contract: false,
    run: (ctx, app) => listWebhooks(ctx, app.state),
  }),
  route({
    method: 'GET',
    path: `${P}/webhooks/{id}`,
    purpose: 'one webhook receiver',
    auth: true,
    key: 'none',
    contract: false,
    run: (ctx, app) => showWebhook(ctx, app.state),
  }),
  route({
    method: 'DELETE',
    path: `${P}/webhooks/{id}`,
    purpose: 'remove a webhook receiver',
    auth: true,
    key: 'required',
    contract: false,
    run: (ctx, app) => deleteWebhook(ctx, app.state),
  }),
  route({
    method: 'GET',
    path: `${P}/webhooks/{id}/deliveries`,
    purpose: 'delivery log of a receiver, with attempts',
    auth: true,
    key: 'none',
    contract: false,
    run: (ctx, app) => listDeliveries(ctx, app.state),
  }),
  route({
    method: 'GET',
    path: `${P}/webhooks/{id}/deliveries/{deliveryId}`,
    purpose: 'one delivery of a receiver, with its attempts',
    auth: true,
    key: 'none',
    contract: false,
    run: (ctx, app) => showDelivery(ctx, app.state),
  }),
  route({
    method: 'POST',
    path: `${P}/webhooks/{id}/deliveries/{deliveryId}/replay`,
    purpose: 'send a logged delivery again',
    auth: true,
    key: 'required',
    contract: false,
    run: (ctx, app) => replayDelivery(ctx, app.state),
  }),
  route({
    method: 'GET',
    path: `${P}/audit-log`,
    purpose: 'audit log of the tenant with its hash chain',
    auth: true,
    key: 'none',
    contract: true,
    run: (ctx, app) => readAudit(ctx, app.state),
  }),
];
