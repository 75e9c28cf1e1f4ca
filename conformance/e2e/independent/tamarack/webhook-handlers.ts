// Webhook receivers and their delivery log (the outbox rows of a receiver), with a requeue of one delivery.
import { randomBytes } from 'node:crypto';
import type { App, Handler } from './app.ts';
import { ApiError, type Ctx, instant, ok, readJsonObject } from './http-kit.ts';
import type { Receiver } from './store.ts';
import { uuidv7 } from './store.ts';
import { receiverUrl, textList } from './validate.ts';
import { deliveryView, EVENT_NAMES } from './webhooks.ts';

const view = (r: Receiver): Record<string, unknown> => ({
  id: r.id,
  url: r.url,
  events: [...r.events],
  state: r.state,
  createdAt: r.createdAt,
  signingKeyHint: `…${r.signingKey.slice(-4)}`,
});

function ownReceiver(ctx: Ctx, app: App, id: string | undefined): Receiver {
  const r = id === undefined ? undefined : app.store.receivers.get(id);
  if (!r || r.tenant !== ctx.tenant)
    throw new ApiError('not_found', 'No webhook receiver with this id for this tenant.');
  return r;
}

/** Runs a keyed write once: a replay answers the stored data, another body under the key is a conflict. */
function once(
  ctx: Ctx,
  app: App,
  operation: string,
  body: unknown,
  write: () => { stored: unknown; shown: unknown },
): void {
  const tenant = ctx.tenant ?? '';
  const key = ctx.idempotencyKey ?? '';
  const fingerprint = app.idem.fingerprint(ctx.method, operation, body);
  const found = app.idem.lookup(tenant, key, fingerprint);
  if (found.kind === 'conflict')
    throw new ApiError('idempotency_conflict', 'This key was first used with another body or operation.');
  if (found.kind === 'replay') {
    ok(ctx, found.data, { replayed: true });
    return;
  }
  const { stored, shown } = write();
  app.idem.save(tenant, key, fingerprint, stored);
  ok(ctx, shown);
}

export const registerWebhook: Handler = async (ctx, app) => {
  const body = await readJsonObject(ctx);
  const url = receiverUrl(body);
  const events = textList(body, 'events', [1, 20], [2, 120]);
  const unknown = events.findIndex((e) => !EVENT_NAMES.includes(e));
  if (unknown >= 0)
    throw new ApiError(
      'invalid_request',
      `events[${unknown}]: unknown event name; see the webhooks section of the self-description.`,
    );
  once(ctx, app, '/webhooks', body, () => {
    const r: Receiver = {
      id: uuidv7(),
      tenant: ctx.tenant ?? '',
      url,
      events: [...new Set(events)],
      state: 'enabled',
      signingKey: `tmk_whk_${randomBytes(32).toString('base64url')}`,
      createdAt: instant(),
    };
    app.store.receivers.set(r.id, r);
    app.audit.record(r.tenant, {
      actor: ctx.clientId ?? '',
      action: 'webhook.created',
      target: { type: 'webhook', id: r.id },
      summary: { url, events: r.events },
      requestId: ctx.requestId,
      idempotencyKey: ctx.idempotencyKey,
    });
    const shown = {
      ...view(r),
      signingKey: r.signingKey,
      signingKeyNotice: 'Store this key now: it is never shown again.',
    };
    const stored = app.store.options.keyOnReplay
      ? shown
      : {
          ...view(r),
          signingKey: null,
          signingKeyNotice: 'Issued with the first answer to this key; never shown again.',
        };
    return { stored, shown };
  });
};

export const listWebhooks: Handler = (ctx, app) => {
  const webhooks = [...app.store.receivers.values()]
    .filter((r) => r.tenant === ctx.tenant && r.state === 'enabled')
    .map(view);
  ok(ctx, { count: webhooks.length, webhooks });
};

export const getWebhook: Handler = (ctx, app, params) => {
  ok(ctx, view(ownReceiver(ctx, app, params.webhookId)));
};

export const deleteWebhook: Handler = async (ctx, app, params) => {
  const body = await readJsonObject(ctx, true);
  once(ctx, app, `/webhooks/${params.webhookId}`, body, () => {
    const r = ownReceiver(ctx, app, params.webhookId);
    if (r.state === 'deleted') throw new ApiError('not_found', 'This webhook receiver was already removed.');
    r.state = 'deleted';
    app.audit.record(r.tenant, {
      actor: ctx.clientId ?? '',
      action: 'webhook.deleted',
      target: { type: 'webhook', id: r.id },
      summary: {},
      requestId: ctx.requestId,
      idempotencyKey: ctx.idempotencyKey,
    });
    const data = { id: r.id, state: r.state, deletedAt: instant() };
    return { stored: data, shown: data };
  });
};

export const deliveryLog: Handler = (ctx, app, params) => {
  const r = ownReceiver(ctx, app, params.webhookId);
  const deliveries = app.store.outbox
    .filter((row) => row.receiverId === r.id)
    .reverse()
    .map(deliveryView);
  ok(ctx, { webhookId: r.id, count: deliveries.length, deliveries });
};

export const requeueDelivery: Handler = async (ctx, app, params) => {
  const body = await readJsonObject(ctx, true);
  once(ctx, app, `/webhooks/${params.webhookId}/outbox/${params.deliveryId}/requeue`, body, () => {
    const r = ownReceiver(ctx, app, params.webhookId);
    const row = app.store.outbox.find((x) => x.id === params.deliveryId && x.receiverId === r.id);
    if (!row) throw new ApiError('not_found', 'No delivery with this id for this receiver.');
    if (r.state !== 'enabled') throw new ApiError('not_found', 'This webhook receiver was removed.');
    app.relay.requeue(row);
    app.audit.record(r.tenant, {
      actor: ctx.clientId ?? '',
      action: 'webhook.delivery_requeued',
      target: { type: 'delivery', id: row.id },
      summary: { webhookId: r.id, event: row.event },
      requestId: ctx.requestId,
      idempotencyKey: ctx.idempotencyKey,
    });
    const data = { requeuedAt: instant(), delivery: deliveryView(row) };
    return { stored: data, shown: data };
  });
};
