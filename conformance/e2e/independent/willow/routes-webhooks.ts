// Webhook receivers, their delivery log and selective re-triggering (log and retry came with 2026-07-01).
import { randomBytes } from 'node:crypto';
import type { Body, Ctx, Route } from './http-kit.ts';
import { invalid, notFound, stamp } from './http-kit.ts';
import { nonNegativeInt, webhookUrl } from './validate.ts';
import { EVENT_NAMES, publicDelivery, type Webhook } from './webhook-queue.ts';
import type { World } from './world.ts';

function events(value: unknown): string[] {
  if (!Array.isArray(value) || value.length < 1 || value.length > 20)
    throw invalid('events must be an array of 1 to 20 event names.');
  for (const e of value) {
    if (typeof e !== 'string' || !EVENT_NAMES.includes(e))
      throw invalid(`events: each must be one of ${EVENT_NAMES.join(', ')}.`);
  }
  return [...new Set(value as string[])];
}

const view = (wh: Webhook): Record<string, unknown> => {
  const { signingKey: _key, ...rest } = wh;
  return rest;
};

export const webhookRoutes: Route[] = [
  {
    method: 'POST',
    path: '/webhooks',
    purpose: 'create a webhook receiver; the signing key is in this answer only',
    auth: true,
    key: 'required',
    contract: true,
    check: (_ctx, _w, body: Body) => ({ url: webhookUrl(body.url), events: events(body.events) }),
    run: (ctx, w, input) => {
      const i = input as { url: string; events: string[] };
      const t = w.tenant(ctx.tenant);
      const wh: Webhook = {
        id: `whk_${randomBytes(10).toString('hex')}`,
        url: i.url,
        events: i.events,
        status: 'enabled',
        createdAt: stamp(ctx.utcOffset),
        signingKey: `wsk_${randomBytes(32).toString('hex')}`,
      };
      t.webhooks.set(wh.id, wh);
      t.record({
        action: 'webhook.created',
        actor: { type: 'client', id: ctx.clientId },
        resource: { type: 'webhook', id: wh.id },
        requestId: ctx.requestId,
        idempotencyKey: ctx.idempotencyKey ?? null,
        changes: { events: wh.events },
      });
      return { ...view(wh), signingKey: wh.signingKey, signatureHeader: 'Willow-Signature' };
    },
    // "Issued exactly once": a replay is the first answer without the key (no marker field: same answer).
    onReplay: (data) => {
      const { signingKey: _key, ...rest } = data as Record<string, unknown>;
      return rest;
    },
  },
  {
    method: 'DELETE',
    path: '/webhooks/:webhookId',
    purpose: 'remove a webhook receiver',
    auth: true,
    key: 'required',
    run: (ctx, w) => {
      const t = w.tenant(ctx.tenant);
      const wh = t.webhooks.get(ctx.params.webhookId ?? '');
      if (wh === undefined) throw notFound('No webhook receiver of this tenant has this id.');
      t.webhooks.delete(wh.id);
      t.record({
        action: 'webhook.deleted',
        actor: { type: 'client', id: ctx.clientId },
        resource: { type: 'webhook', id: wh.id },
        requestId: ctx.requestId,
        idempotencyKey: ctx.idempotencyKey ?? null,
        changes: {},
      });
      return { id: wh.id, deleted: true };
    },
  },
  {
    method: 'GET',
    path: '/webhooks/:webhookId/delivery-log',
    purpose: 'delivery log of a webhook receiver, newest first',
    auth: true,
    key: 'none',
    since: '2026-07-01',
    layout: 'nested',
    run: (ctx, w) => listDeliveries(ctx, w, ctx.params.webhookId ?? ''),
  },
  {
    method: 'POST',
    path: '/webhooks/:webhookId/delivery-log/:deliveryId/retry',
    purpose: 'trigger one logged delivery again',
    auth: true,
    key: 'required',
    since: '2026-07-01',
    layout: 'nested',
    run: (ctx, w) => retryDelivery(ctx, w, ctx.params.webhookId, ctx.params.deliveryId ?? ''),
  },
  {
    method: 'GET',
    path: '/webhook-deliveries',
    purpose: 'delivery log of the webhook receiver named by ?webhookId, newest first',
    auth: true,
    key: 'none',
    since: '2026-07-01',
    layout: 'flat',
    run: (ctx, w) => {
      const id = ctx.query.get('webhookId');
      if (id === null) throw invalid('The query parameter webhookId is required.');
      return listDeliveries(ctx, w, id);
    },
  },
  {
    method: 'POST',
    path: '/webhook-deliveries/:deliveryId/retry',
    purpose: 'trigger one logged delivery again',
    auth: true,
    key: 'required',
    since: '2026-07-01',
    layout: 'flat',
    run: (ctx, w) => retryDelivery(ctx, w, undefined, ctx.params.deliveryId ?? ''),
  },
];

function listDeliveries(ctx: Ctx, w: World, id: string) {
  const t = w.tenant(ctx.tenant);
  if (!t.webhooks.has(id)) throw notFound('No webhook receiver of this tenant has this id.');
  const limitText = ctx.query.get('limit');
  const limit = limitText === null ? 100 : nonNegativeInt(limitText, 'limit');
  if (limit < 1 || limit > 500) throw invalid('limit must be 1 to 500.');
  const list = t.deliveries
    .filter((d) => d.webhookId === id)
    .reverse()
    .slice(0, limit);
  return { webhookId: id, count: list.length, deliveries: list.map(publicDelivery) };
}

function retryDelivery(ctx: Ctx, w: World, webhookId: string | undefined, deliveryId: string) {
  const t = w.tenant(ctx.tenant);
  const original = t.deliveries.find(
    (d) => d.id === deliveryId && (webhookId === undefined || d.webhookId === webhookId),
  );
  if (original === undefined) throw notFound('No delivery of this receiver has this id.');
  const d = t.redeliver(original);
  if (d === undefined) throw notFound('The receiver of this delivery was removed.');
  t.record({
    action: 'webhook.delivery_retried',
    actor: { type: 'client', id: ctx.clientId },
    resource: { type: 'delivery', id: d.id },
    requestId: ctx.requestId,
    idempotencyKey: ctx.idempotencyKey ?? null,
    changes: { redeliveryOf: original.id },
  });
  return publicDelivery(d);
}
