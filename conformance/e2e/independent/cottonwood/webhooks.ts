// Webhook receivers and their delivery log: registration (the signing key shown in that answer only),
// listing, removal, the log of deliveries and a selective retry of one of them.
import { randomBytes } from 'node:crypto';
import type { AuditLog } from './audit.ts';
import { type Ctx, HttpError, nanoid, ok, type Rec, readJson } from './http.ts';
import type { IdempotencyStore } from './idempotency.ts';
import type { Delivery, Store, Webhook } from './state.ts';
import { t, validate } from './validate.ts';
import { type DeliveryQueue, EVENT_NAMES } from './webhook-queue.ts';

export const webhookBody = t.Object({
  url: t.String({ minLength: 8, maxLength: 2048, pattern: '^https?://', format: 'uri' }),
  events: t.Array(t.Enum(EVENT_NAMES), { minItems: 1, maxItems: 20 }),
});

function view(h: Webhook): Rec {
  return { id: h.id, url: h.url, events: h.events, status: 'enabled', createdAt: h.createdAt };
}

function deliveryView(d: Delivery): Rec {
  const { body: _body, ...rest } = d;
  return rest;
}

export class WebhookRoutes {
  private store: Store;
  private idem: IdempotencyStore;
  private queue: DeliveryQueue;
  private audit: AuditLog;
  constructor(store: Store, idem: IdempotencyStore, queue: DeliveryQueue, audit: AuditLog) {
    this.store = store;
    this.idem = idem;
    this.queue = queue;
    this.audit = audit;
  }

  /** Another tenant's receiver is answered as absent (404), as the contract's not_found names. */
  private find(tenant: string, id: string): Webhook {
    const hook = this.store.webhooks.find((h) => h.id === id && h.tenant === tenant);
    if (!hook) throw new HttpError(404, 'not_found', 'No such webhook receiver for this tenant');
    return hook;
  }

  async create(ctx: Ctx, tenant: string) {
    const key = this.idem.requireKey(ctx);
    const body = validate<{ url: string; events: string[] }>(webhookBody, await readJson(ctx));
    const result = this.idem.run(ctx, key, body, () => {
      const hook: Webhook = {
        id: `wh_${nanoid()}`,
        tenant,
        url: body.url,
        events: [...new Set(body.events)],
        secret: `whsec_${randomBytes(24).toString('base64url')}`,
        createdAt: new Date().toISOString(),
      };
      this.store.webhooks.push(hook);
      this.audit.record(ctx, 'webhook.created', 'webhook', hook.id);
      // The key is in this answer only; a replay of the same call returns this same answer.
      return { ...view(hook), secret: hook.secret };
    });
    ok(ctx, result.data, result.meta);
  }

  list(ctx: Ctx, tenant: string) {
    const hooks = this.store.webhooks.filter((h) => h.tenant === tenant).map(view);
    ok(ctx, { count: hooks.length, webhooks: hooks, events: EVENT_NAMES });
  }

  get(ctx: Ctx, tenant: string, id: string) {
    ok(ctx, view(this.find(tenant, id)));
  }

  remove(ctx: Ctx, tenant: string, id: string) {
    const key = this.idem.requireKey(ctx);
    const result = this.idem.run(ctx, key, {}, () => {
      const hook = this.find(tenant, id);
      this.store.webhooks = this.store.webhooks.filter((h) => h !== hook);
      this.audit.record(ctx, 'webhook.deleted', 'webhook', hook.id);
      return { id: hook.id, deleted: true };
    });
    ok(ctx, result.data, result.meta);
  }

  deliveries(ctx: Ctx, tenant: string, id: string) {
    const hook = this.find(tenant, id);
    const list = this.store.deliveries
      .filter((d) => d.webhookId === hook.id)
      .reverse()
      .map(deliveryView);
    ok(ctx, { webhookId: hook.id, count: list.length, deliveries: list });
  }

  async retry(ctx: Ctx, tenant: string, id: string, deliveryId: string) {
    const key = this.idem.requireKey(ctx);
    const hook = this.find(tenant, id);
    const original = this.store.deliveries.find((d) => d.id === deliveryId && d.webhookId === hook.id);
    if (!original) throw new HttpError(404, 'not_found', 'No such delivery for this receiver');
    const result = this.idem.run(ctx, key, { deliveryId }, () => {
      const again = this.queue.redeliver(hook, original);
      this.audit.record(ctx, 'webhook.delivery.retried', 'delivery', again.id);
      return deliveryView(again);
    });
    ok(ctx, result.data, result.meta);
  }
}
