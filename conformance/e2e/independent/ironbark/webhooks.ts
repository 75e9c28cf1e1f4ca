// Webhook receivers and their deliveries as Hangfire-style background jobs: each delivery is a job with a
// state (Enqueued, Processing, Succeeded, Scheduled, Failed), retried with growing waits, recorded in a
// dashboard-like delivery log and requeued on request.
import { createHmac, randomBytes } from 'node:crypto';
import type { Store, StoredEvent } from './store.ts';
import { roundTrip, shortGuid } from './util.ts';

export const WEBHOOK_EVENTS = ['ConnectionCreated', 'ConnectionStateChanged', 'order.created', 'order.paid'] as const;
export const SIGNATURE_HEADER = 'Ironbark-Signature';
export const DELIVERY_HEADER = 'Ironbark-Delivery';

export interface Webhook {
  id: string;
  tenant: string;
  url: string;
  events: string[];
  secret: string;
  createdAt: string;
  Status: 'Active' | 'Removed';
}

export interface Attempt {
  Attempt: number;
  At: string;
  ResponseStatus: number | null;
  Error: string | null;
  Trigger: 'Initial' | 'Retry' | 'Requeue';
}

export interface Delivery {
  id: string;
  webhookId: string;
  JobId: string;
  EventId: string;
  Event: string;
  State: 'Enqueued' | 'Processing' | 'Succeeded' | 'Scheduled' | 'Failed';
  CreatedAt: string;
  Attempts: Attempt[];
  body: string;
}

export function sign(secret: string, body: string, t = Math.floor(Date.now() / 1000)): string {
  return `t=${t},v1=${createHmac('sha256', secret).update(`${t}.${body}`).digest('hex')}`;
}

export class Webhooks {
  readonly hooks = new Map<string, Webhook>();
  readonly deliveries = new Map<string, Delivery>();
  private jobCounter = 0;

  private readonly store: Store;
  private readonly maxAttempts: number;
  private readonly retryBaseMs: number;
  constructor(store: Store, maxAttempts: number, retryBaseMs: number) {
    this.store = store;
    this.maxAttempts = maxAttempts;
    this.retryBaseMs = retryBaseMs;
    store.onEvent((e) => this.onEvent(e));
  }

  register(tenant: string, url: string, events: string[]): Webhook {
    const hook: Webhook = {
      id: shortGuid(),
      tenant,
      url,
      events,
      secret: `whsec_${randomBytes(24).toString('base64url')}`,
      createdAt: roundTrip(),
      Status: 'Active',
    };
    this.hooks.set(hook.id, hook);
    return hook;
  }

  view(h: Webhook) {
    return { id: h.id, url: h.url, events: h.events, createdAt: h.createdAt, Status: h.Status };
  }

  find(tenant: string, id: string): Webhook | undefined {
    const h = this.hooks.get(id);
    return h && h.tenant === tenant && h.Status === 'Active' ? h : undefined;
  }

  list(tenant: string): Webhook[] {
    return [...this.hooks.values()].filter((h) => h.tenant === tenant && h.Status === 'Active');
  }

  deliveriesOf(webhookId: string): Delivery[] {
    return [...this.deliveries.values()].filter((d) => d.webhookId === webhookId);
  }

  viewDelivery(d: Delivery) {
    const { body: _body, ...rest } = d;
    return { ...rest, AttemptCount: d.Attempts.length, SignatureHeader: SIGNATURE_HEADER };
  }

  private onEvent(e: StoredEvent): void {
    const name =
      e.EventType === 'ConnectionRequested'
        ? 'ConnectionCreated'
        : e.EventType.startsWith('Connection')
          ? 'ConnectionStateChanged'
          : undefined;
    if (!name) return;
    const payload = {
      Id: shortGuid(),
      Type: name,
      OccurredAt: e.At,
      Tenant: e.Tenant,
      Data: {
        ConnectionId: e.StreamId.replace(/^connection-/, ''),
        State: e.Data.state,
        EventType: e.EventType,
      },
    };
    for (const h of this.list(e.Tenant)) {
      if (!h.events.includes(name)) continue;
      this.jobCounter += 1;
      const d: Delivery = {
        id: shortGuid(),
        webhookId: h.id,
        JobId: String(this.jobCounter),
        EventId: payload.Id,
        Event: name,
        State: 'Enqueued',
        CreatedAt: roundTrip(),
        Attempts: [],
        body: JSON.stringify(payload),
      };
      this.deliveries.set(d.id, d);
      this.store.later(0, () => void this.perform(d, 'Initial'));
    }
  }

  /** Requeues a logged delivery (a new attempt of the same delivery, same id and body). */
  requeue(d: Delivery): void {
    d.State = 'Enqueued';
    this.store.later(0, () => void this.perform(d, 'Requeue'));
  }

  private async perform(d: Delivery, trigger: Attempt['Trigger']): Promise<void> {
    const h = this.hooks.get(d.webhookId);
    if (h?.Status !== 'Active') {
      d.State = 'Failed';
      return;
    }
    d.State = 'Processing';
    const attempt: Attempt = {
      Attempt: d.Attempts.length + 1,
      At: roundTrip(),
      ResponseStatus: null,
      Error: null,
      Trigger: trigger,
    };
    d.Attempts.push(attempt);
    try {
      const r = await fetch(h.url, {
        method: 'POST',
        headers: {
          'content-type': 'application/json',
          [SIGNATURE_HEADER]: sign(h.secret, d.body),
          [DELIVERY_HEADER]: d.id,
          'Ironbark-Event': d.Event,
          'user-agent': 'Ironbark-Webhooks/1.0 (Hangfire)',
        },
        body: d.body,
        signal: AbortSignal.timeout(5000),
      });
      await r.arrayBuffer().catch(() => undefined);
      attempt.ResponseStatus = r.status;
      if (r.ok) {
        d.State = 'Succeeded';
        return;
      }
      attempt.Error = `HTTP ${r.status}`;
    } catch (err) {
      attempt.Error = err instanceof Error ? err.message : String(err);
    }
    const automatic = d.Attempts.filter((a) => a.Trigger !== 'Requeue').length;
    if (trigger !== 'Requeue' && automatic < this.maxAttempts) {
      d.State = 'Scheduled';
      this.store.later(this.retryBaseMs * 2 ** (automatic - 1), () => void this.perform(d, 'Retry'));
    } else {
      d.State = 'Failed';
    }
  }
}
