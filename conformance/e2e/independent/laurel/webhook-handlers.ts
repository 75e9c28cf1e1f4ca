// Handlers of webhook receivers, the delivery log, redelivery and the audit log.
import { decodeCursor, encodeCursor } from './audit.ts';
import type { Handler } from './handlers.ts';
import type { Ctx } from './http-util.ts';
import { ApiError, readJson, sendData } from './http-util.ts';
import { keyed } from './idempotency.ts';
import type { State } from './state.ts';
import * as v from './validate.ts';
import { WEBHOOK_EVENTS } from './webhooks.ts';

/** Bodies of DELETE and redeliver are not read (nothing to say); they are drained for keep-alive. */
async function drain(ctx: Ctx): Promise<void> {
  for await (const _chunk of ctx.req) {
    // discard
  }
}

export const createWebhook: Handler = async (ctx, state) => {
  const key = state.keys.header(ctx, true);
  const raw = await readJson(ctx);
  const body = v.object(raw, ['url', 'events'], state.options.ignoreExtraFields);
  const url = v.receiverUrl(body);
  const events = v.textList(body, 'events', 1, 20, 2, 120);
  events.forEach((e, i) => {
    if (!WEBHOOK_EVENTS.includes(e)) throw new ApiError('invalid_request', `body.events[${i}]: unknown event name`);
  });
  const tenant = ctx.tenant ?? '';
  const out = keyed(ctx, state.keys, key, raw, () => {
    const hook = state.hooks.register(tenant, url, events);
    state.audit.record(tenant, {
      actor: ctx.clientId ?? '',
      action: 'webhook.created',
      resourceType: 'webhook',
      resourceId: hook.id,
      requestId: ctx.requestId,
      details: { url, events },
    });
    return state.hooks.view(hook, true);
  });
  if (out.meta.replayed && state.options.redactSecretOnReplay) {
    const { secret: _secret, ...rest } = out.data as Record<string, unknown>;
    return sendData(ctx, rest, out.meta);
  }
  sendData(ctx, out.data, out.meta);
};

export const deleteWebhook: Handler = async (ctx, state, params) => {
  const key = state.keys.header(ctx, true);
  await drain(ctx);
  const id = params.webhookId ?? '';
  const out = keyed(ctx, state.keys, key, null, () => {
    const hook = state.hooks.webhooks.get(id);
    if (!hook || hook.tenant !== ctx.tenant)
      throw new ApiError('not_found', 'path.webhookId: no such webhook receiver');
    state.hooks.webhooks.delete(id);
    state.audit.record(hook.tenant, {
      actor: ctx.clientId ?? '',
      action: 'webhook.deleted',
      resourceType: 'webhook',
      resourceId: id,
      requestId: ctx.requestId,
      details: {},
    });
    return { id, deleted: true };
  });
  sendData(ctx, out.data, out.meta);
};

/** Optionally the delivery log exists only for callers of 2026-07-01, the version that added it. */
function sinceCurrent(ctx: Ctx, state: State): void {
  if (state.options.deliveryLogSinceCurrent && ctx.version === '2026-06-12') {
    throw new ApiError('not_found', 'path: the delivery log exists since version 2026-07-01');
  }
}

export const listDeliveries: Handler = (ctx, state) => {
  sinceCurrent(ctx, state);
  const id = ctx.query.get('webhookId');
  if (id === null || id === '') throw new ApiError('invalid_request', 'query.webhookId: field required');
  const hook = state.hooks.webhooks.get(id);
  if (!hook || hook.tenant !== ctx.tenant) throw new ApiError('not_found', 'query.webhookId: no such webhook receiver');
  const list = [...state.hooks.deliveries.values()]
    .filter((d) => d.webhookId === id)
    .reverse()
    .map((d) => state.hooks.deliveryView(d));
  sendData(ctx, { webhookId: id, count: list.length, deliveries: list });
};

export const redeliver: Handler = async (ctx, state, params) => {
  sinceCurrent(ctx, state);
  const key = state.keys.header(ctx, true);
  await drain(ctx);
  const id = params.deliveryId ?? '';
  const out = keyed(ctx, state.keys, key, null, () => {
    const original = state.hooks.deliveries.get(id);
    if (!original || original.tenant !== ctx.tenant)
      throw new ApiError('not_found', 'path.deliveryId: no such delivery');
    const again = state.hooks.redeliver(original);
    if (!again) throw new ApiError('not_found', 'path.deliveryId: its webhook receiver was removed');
    state.audit.record(original.tenant, {
      actor: ctx.clientId ?? '',
      action: 'webhook.redelivered',
      resourceType: 'webhook_delivery',
      resourceId: again.id,
      requestId: ctx.requestId,
      details: { redeliveryOf: id, webhookId: original.webhookId },
    });
    return state.hooks.deliveryView(again);
  });
  sendData(ctx, out.data, out.meta);
};

export const auditLog: Handler = (ctx, state) => {
  const limit = v.queryInt(ctx.query.get('limit'), 'limit', 1, 100) ?? 50;
  const rawCursor = ctx.query.get('cursor');
  let before: number | undefined;
  if (rawCursor !== null) {
    before = decodeCursor(rawCursor);
    if (before === undefined) throw new ApiError('invalid_request', 'query.cursor: not a cursor of this log');
  }
  const tenant = ctx.tenant ?? '';
  const page = state.audit.page(tenant, limit, before, state.options.auditOldestFirst === true);
  sendData(ctx, {
    count: page.entries.length,
    entries: page.entries,
    next_cursor: page.next === null ? null : encodeCursor(page.next),
    proof: state.audit.proof(tenant),
  });
};

export const auditKey: Handler = (ctx, state) => {
  sendData(ctx, { keys: [state.audit.publicJwk] });
};
