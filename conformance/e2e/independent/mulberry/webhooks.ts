// Webhook receivers: POST /webhooks (key), GET /webhooks, DELETE /webhooks/{id} (key). The signing
// key is in the creation answer only (an idempotent replay is that same answer); loopback URLs only.

import { randomBytes } from 'node:crypto';
import { record } from './audit.ts';
import { DELIVERY_HEADER, deliver, SIGNATURE_HEADER, tables, type Webhook } from './deliveries.ts';
import { ApiError, type Ctx, invalid, ok } from './http.ts';
import { idempotent } from './idempotency.ts';
import { ksuid, now, type State } from './state.ts';

export const EVENT_NAMES = ['connection.created', 'connection.state_changed', 'order.created', 'order.paid'];
const LOOPBACK = /^(127(\.\d{1,3}){3}|localhost|\[::1\])$/;

const view = (w: Webhook) => ({ id: w.id, url: w.url, events: w.events, createdAt: w.createdAt });

function validate(body: Record<string, unknown>): { url: string; events: string[] } {
  const raw = body.url;
  if (typeof raw !== 'string' || raw.length > 2048)
    throw invalid('Field url is required.', 'url: missing or wrong type');
  let u: URL;
  try {
    u = new URL(raw);
  } catch {
    throw invalid('Field url is not an absolute URL.', 'url: not absolute');
  }
  if (!['http:', 'https:'].includes(u.protocol) || u.username || u.password)
    throw invalid('Field url must be http(s) without credentials.', `url: ${u.protocol}`);
  if (!LOOPBACK.test(u.hostname))
    throw invalid('This deployment delivers to loopback addresses only.', `url host: ${u.hostname}`);
  const events = body.events;
  if (!Array.isArray(events) || events.length < 1 || events.length > 20)
    throw invalid('Field events must be an array of 1 to 20 event names.', `events: one of ${EVENT_NAMES.join(', ')}`);
  for (const e of events)
    if (typeof e !== 'string' || !EVENT_NAMES.includes(e))
      throw invalid('Unknown event name.', `events: one of ${EVENT_NAMES.join(', ')}`);
  return { url: raw, events: [...new Set(events as string[])] };
}

export function createWebhook(ctx: Ctx): Promise<void> {
  return idempotent(ctx, (body) => {
    const v = validate(body);
    const w: Webhook = {
      id: ksuid(),
      tenant: ctx.auth?.tenant ?? '',
      url: v.url,
      events: v.events,
      signingKey: `mbwh_${randomBytes(24).toString('hex')}`,
      createdAt: now(ctx.state),
    };
    tables(ctx.state).webhooks.set(w.id, w);
    record(ctx.state, w.tenant, 'webhook.created', w.id);
    return {
      ...view(w),
      signingKey: w.signingKey,
      signatureHeader: SIGNATURE_HEADER,
      deliveryIdHeader: DELIVERY_HEADER,
    };
  });
}

export function listWebhooks(ctx: Ctx): void {
  const webhooks = [...tables(ctx.state).webhooks.values()]
    .filter((w) => w.tenant === ctx.auth?.tenant && !w.deleted)
    .map(view);
  ok(ctx, { count: webhooks.length, webhooks });
}

export function deleteWebhook(ctx: Ctx, id: string): Promise<void> {
  return idempotent(ctx, () => {
    const w = tables(ctx.state).webhooks.get(id);
    if (!w || w.deleted || w.tenant !== ctx.auth?.tenant)
      throw new ApiError('not_found', 'Webhook not found.', `id: ${id}`);
    w.deleted = true;
    record(ctx.state, w.tenant, 'webhook.deleted', w.id);
    return { id: w.id, deleted: true };
  });
}

/** Every tenant event goes to that tenant's receivers subscribed to its name. */
export function installDispatch(state: State): void {
  state.listeners.push((tenant, type, data) => {
    const event = { id: ksuid(), type, createdAt: now(state), tenant, data };
    const body = JSON.stringify(event);
    for (const w of tables(state).webhooks.values())
      if (w.tenant === tenant && !w.deleted && w.events.includes(type)) deliver(state, w, event.id, type, body);
  });
}
