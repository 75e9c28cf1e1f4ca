// Webhook receivers (the team's `webhooks` table): registration with a signing key shown once, listing
// without it, removal, and `emit`, which inserts one `deliveries` row per subscribed receiver for the
// drainer (deliveries.ts) to send.
import { randomBytes, randomUUID } from 'node:crypto';
import type { AuditLog } from './audit.ts';
import { ApiError, type Ctx, denyUnknown, now, ok, type Rec, readJson } from './http.ts';
import { idempotent, requireKey } from './idempotency.ts';
import type { Store } from './state.ts';

export const EVENT_NAMES = ['connection.created', 'connection.state_changed', 'order.created', 'order.paid'];

function publicView(w: Rec): Rec {
  return { id: w.id, url: w.url, events: w.events, active: true, createdAt: w.createdAt };
}

export class Webhooks {
  private readonly store: Store;
  private readonly audit: AuditLog;

  constructor(store: Store, audit: AuditLog) {
    this.store = store;
    this.audit = audit;
  }

  async create(ctx: Ctx, tenant: string, clientId: string): Promise<void> {
    const key = requireKey(ctx);
    const body = await readJson(ctx);
    denyUnknown(body, ['url', 'events']);
    let url: URL;
    try {
      url = new URL(String(body.url));
    } catch {
      throw new ApiError('invalid_request', 'Field url must be an absolute URL');
    }
    if (url.protocol !== 'http:' && url.protocol !== 'https:') {
      throw new ApiError('invalid_request', 'Field url must be an http or https URL');
    }
    const events = body.events;
    if (!Array.isArray(events) || events.length === 0 || events.some((e) => !EVENT_NAMES.includes(e))) {
      throw new ApiError(
        'invalid_request',
        'Field events must list known event names',
        `events: one of ${EVENT_NAMES}`,
      );
    }
    idempotent(
      ctx,
      this.store,
      tenant,
      key,
      body,
      () => {
        this.store.seq.webhook += 1;
        const w = {
          id: this.store.seq.webhook,
          tenant,
          url: url.href,
          events: [...new Set(events as string[])],
          secret: `whsec_${randomBytes(32).toString('hex')}`,
          createdAt: now(),
        };
        this.store.webhooks.set(w.id, w);
        this.audit.record(tenant, clientId, 'webhook.created', 'webhook', String(w.id));
        return { ...publicView(w), signingKey: w.secret };
      },
      (data) => {
        if (!this.store.options.redactReplayedKey) return data;
        const { signingKey: _shownOnce, ...rest } = data;
        return rest;
      },
    );
  }

  /** A receiver of this tenant, else 404 (another tenant's receiver does not exist for the caller). */
  find(tenant: string, raw: string | null): Rec & { id: number } {
    const w = /^\d+$/.test(raw ?? '') ? this.store.webhooks.get(Number(raw)) : undefined;
    if (!w || w.tenant !== tenant) throw new ApiError('not_found', 'No webhook receiver with this id');
    return w;
  }

  list(ctx: Ctx, tenant: string): void {
    const webhooks = [...this.store.webhooks.values()].filter((w) => w.tenant === tenant).map(publicView);
    ok(ctx, { count: webhooks.length, webhooks });
  }

  remove(ctx: Ctx, tenant: string, clientId: string, id: string): void {
    const key = requireKey(ctx);
    idempotent(ctx, this.store, tenant, key, { remove: id }, () => {
      const w = this.find(tenant, id);
      this.store.webhooks.delete(w.id);
      this.audit.record(tenant, clientId, 'webhook.deleted', 'webhook', String(w.id));
      return { id: w.id, deleted: true };
    });
  }

  emit(tenant: string, type: string, data: Rec): void {
    const event = { id: randomUUID(), type, createdAt: now(), tenant, data };
    for (const w of this.store.webhooks.values()) {
      if (w.tenant !== tenant || !w.events.includes(type)) continue;
      this.store.seq.delivery += 1;
      this.store.deliveries.push({
        id: this.store.seq.delivery,
        webhookId: w.id,
        tenant,
        eventId: event.id,
        eventType: type,
        body: JSON.stringify(event),
        status: 'pending',
        attempts: 0,
        nextAttemptAt: Date.now(),
        responseStatus: null,
        createdAt: now(),
        lastAttemptAt: null,
        redeliveryOf: null,
      });
    }
  }
}
