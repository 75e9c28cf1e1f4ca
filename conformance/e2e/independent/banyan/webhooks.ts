// banyan's webhooks: receivers per tenant, signed deliveries of store events (Banyan-Signature), retries with
// exponential backoff, a delivery log per receiver and a replay of one logged delivery.
import { createHmac, randomBytes } from 'node:crypto';
import type { EventStore, StoredEvent } from './store.ts';
import { uuidv7 } from './util.ts';

export const WEBHOOK_EVENTS = ['connection.created', 'connection.state_changed', 'order.created', 'order.paid'];

export interface Webhook {
  id: string;
  tenant: string;
  url: string;
  events: string[];
  createdAt: string;
  signingKey: string;
}
export interface Attempt {
  number: number;
  trigger: 'initial' | 'retry' | 'replay';
  at: string;
  statusCode: number | null;
  outcome: 'pending' | 'delivered' | 'failed';
  error?: string;
}
export interface Delivery {
  id: string;
  webhookId: string;
  eventId: string;
  event: string;
  position: number;
  status: 'pending' | 'delivered' | 'failed';
  createdAt: string;
  attempts: Attempt[];
  body: string;
}

export interface WebhookOptions {
  /** First retry after this many ms, doubling each time. */
  retryBaseMs: number;
  maxRetries: number;
}

export function sign(key: string, t: number, body: string): string {
  return `t=${t},v1=${createHmac('sha256', key).update(`${t}.${body}`, 'utf8').digest('hex')}`;
}

export class Webhooks {
  hooks = new Map<string, Webhook>();
  deliveries = new Map<string, Delivery>();
  timers = new Set<NodeJS.Timeout>();
  opts: WebhookOptions;
  closed = false;

  constructor(store: EventStore, opts: WebhookOptions) {
    this.opts = opts;
    store.listeners.add((e) => this.dispatch(e));
  }

  register(tenant: string, url: string, events: string[]): Webhook {
    const hook: Webhook = {
      id: uuidv7(),
      tenant,
      url,
      events: [...new Set(events)],
      createdAt: new Date().toISOString(),
      signingKey: `bnysk_${randomBytes(24).toString('hex')}`,
    };
    this.hooks.set(hook.id, hook);
    return hook;
  }

  /** A receiver of the tenant, or undefined (another tenant's receiver is not found). */
  find(tenant: string, id: string): Webhook | undefined {
    const h = this.hooks.get(id);
    return h && h.tenant === tenant ? h : undefined;
  }

  deliveriesOf(webhookId: string): Delivery[] {
    return [...this.deliveries.values()].filter((d) => d.webhookId === webhookId).reverse();
  }

  private dispatch(e: StoredEvent): void {
    for (const hook of this.hooks.values()) {
      if (hook.tenant !== e.tenant || !hook.events.includes(e.kind)) continue;
      const body = JSON.stringify({
        id: e.eventId,
        type: e.kind,
        position: e.position,
        tenant: e.tenant,
        occurredAt: e.occurredAt,
        data: e.data,
      });
      const d: Delivery = {
        id: uuidv7(),
        webhookId: hook.id,
        eventId: e.eventId,
        event: e.kind,
        position: e.position,
        status: 'pending',
        createdAt: new Date().toISOString(),
        attempts: [],
        body,
      };
      this.deliveries.set(d.id, d);
      void this.attempt(hook, d, 'initial');
    }
  }

  /** One signed POST; failed initial attempts and retries are retried after 2^n x base ms. */
  async attempt(hook: Webhook, d: Delivery, trigger: Attempt['trigger']): Promise<Attempt> {
    const t = Math.floor(Date.now() / 1000);
    const a: Attempt = {
      number: d.attempts.length + 1,
      trigger,
      at: new Date().toISOString(),
      statusCode: null,
      outcome: 'pending',
    };
    d.attempts.push(a);
    try {
      const res = await fetch(hook.url, {
        method: 'POST',
        headers: {
          'content-type': 'application/json',
          'banyan-signature': sign(hook.signingKey, t, d.body),
          'banyan-delivery': d.id,
          'banyan-event': d.event,
          'user-agent': 'banyan-webhooks/1',
        },
        body: d.body,
        signal: AbortSignal.timeout(5000),
      });
      await res.arrayBuffer().catch(() => undefined);
      a.statusCode = res.status;
      a.outcome = res.ok ? 'delivered' : 'failed';
      if (!res.ok) a.error = `receiver answered ${res.status}`;
    } catch {
      // No address or stack in the log: the partner sees that the receiver could not be reached.
      a.outcome = 'failed';
      a.error = 'receiver not reachable';
    }
    if (a.outcome === 'delivered') d.status = 'delivered';
    else if (d.status !== 'delivered') d.status = 'failed';
    const retries = d.attempts.filter((x) => x.trigger === 'retry').length;
    if (a.outcome === 'failed' && trigger !== 'replay' && retries < this.opts.maxRetries && !this.closed) {
      d.status = 'pending';
      const timer = setTimeout(
        () => {
          this.timers.delete(timer);
          void this.attempt(hook, d, 'retry');
        },
        this.opts.retryBaseMs * 2 ** retries,
      );
      this.timers.add(timer);
    }
    return a;
  }

  close(): void {
    this.closed = true;
    for (const t of this.timers) clearTimeout(t);
    this.timers.clear();
  }
}

/** A delivery as the log shows it (the body is sent, not listed). */
export function deliveryView(d: Delivery) {
  const { body: _body, ...rest } = d;
  return rest;
}
