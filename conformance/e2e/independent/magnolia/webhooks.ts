// Hookdeck-style event gateway: a change becomes an *event* per subscribed receiver; each POST of it is an
// *attempt* (initial, automatic retry, manual retry). Signed in X-Gateway-Signature: t=<unix>,v1=<hex>
// (HMAC-SHA256 over "<t>.<raw body>"). Failed attempts retry on a linear schedule (n x step).
import { createHmac, randomBytes } from 'node:crypto';
import { request } from 'node:http';
import type { Connection } from './state.ts';
import { pgTime, uuidv7 } from './util.ts';

export const EVENT_NAMES = ['connection.created', 'connection.activated', 'order.created', 'order.paid'];
export const SIGNATURE_HEADER = 'X-Gateway-Signature';

export interface Webhook {
  id: string;
  tenant: string;
  url: string;
  events: string[];
  description?: string;
  secret: string;
  createdAt: string;
  active: boolean;
}
export interface GatewayEvent {
  id: string;
  webhookId: string;
  topic: string;
  body: string;
  createdAt: string;
}
export interface Attempt {
  id: string;
  event_id: string;
  webhook_id: string;
  topic: string;
  attempt_number: number;
  trigger: 'initial' | 'automatic_retry' | 'manual_retry';
  status: 'queued' | 'successful' | 'failed';
  response_status: number | null;
  error_code: string | null;
  sent_at: string | null;
  next_attempt_at: string | null;
}

export interface GatewayOptions {
  retryStepMs: number;
  maxAttempts: number;
  /** Forward Hasura's own event-trigger payload (event.data.new, trigger, table) instead of magnolia's. */
  hasuraPayloads: boolean;
}

export class Gateway {
  readonly webhooks = new Map<string, Webhook>();
  readonly events = new Map<string, GatewayEvent>();
  readonly attempts: Attempt[] = [];
  private readonly timers = new Set<NodeJS.Timeout>();
  private readonly opts: GatewayOptions;
  constructor(opts: GatewayOptions) {
    this.opts = opts;
  }

  register(tenant: string, url: string, events: string[], description?: string): Webhook {
    const w: Webhook = {
      id: uuidv7(),
      tenant,
      url,
      events,
      description,
      secret: `whsec_${randomBytes(24).toString('base64url')}`,
      createdAt: pgTime(),
      active: true,
    };
    this.webhooks.set(w.id, w);
    return w;
  }

  /** A connection changed: one event for each active receiver of the tenant subscribed to the topic. */
  onChange(tenant: string, topic: string, c: Connection): void {
    for (const w of this.webhooks.values()) {
      if (!w.active || w.tenant !== tenant || !w.events.includes(topic)) continue;
      const id = uuidv7();
      const createdAt = pgTime();
      const body = JSON.stringify(
        this.opts.hasuraPayloads
          ? {
              event: {
                op: topic === 'connection.created' ? 'INSERT' : 'UPDATE',
                data: { old: null, new: c },
                session_variables: { 'x-hasura-role': 'partner', 'x-hasura-tenant-id': tenant },
              },
              created_at: createdAt,
              id,
              delivery_info: { max_retries: this.opts.maxAttempts - 1, current_retry: 0 },
              trigger: { name: topic.replace('.', '_') },
              table: { schema: 'public', name: 'connections' },
            }
          : { id, topic, created_at: createdAt, webhook_id: w.id, data: { connection: c } },
      );
      const ev: GatewayEvent = { id, webhookId: w.id, topic, body, createdAt };
      this.events.set(id, ev);
      this.attempt(ev, 1, 'initial');
    }
  }

  /** An event by its id, or by the id of one of its attempts (the retry path takes either). */
  findEvent(webhookId: string, id: string): GatewayEvent | undefined {
    const direct = this.events.get(id);
    if (direct) return direct.webhookId === webhookId ? direct : undefined;
    const a = this.attempts.find((x) => x.id === id && x.webhook_id === webhookId);
    return a ? this.events.get(a.event_id) : undefined;
  }

  attemptsOf(webhookId: string): Attempt[] {
    return this.attempts.filter((a) => a.webhook_id === webhookId).reverse();
  }

  attempt(ev: GatewayEvent, n: number, trigger: Attempt['trigger']): Attempt {
    const a: Attempt = {
      id: uuidv7(),
      event_id: ev.id,
      webhook_id: ev.webhookId,
      topic: ev.topic,
      attempt_number: n,
      trigger,
      status: 'queued',
      response_status: null,
      error_code: null,
      sent_at: null,
      next_attempt_at: null,
    };
    this.attempts.push(a);
    setImmediate(() => this.send(ev, a));
    return a;
  }

  private send(ev: GatewayEvent, a: Attempt): void {
    const w = this.webhooks.get(ev.webhookId);
    if (!w) return;
    const t = Math.floor(Date.now() / 1000);
    const v1 = createHmac('sha256', w.secret).update(`${t}.${ev.body}`).digest('hex');
    a.sent_at = pgTime();
    const done = (status: number | null, error: string | null): void => {
      a.response_status = status;
      a.error_code = error;
      a.status = status !== null && status >= 200 && status < 300 ? 'successful' : 'failed';
      if (a.status === 'failed' && a.trigger !== 'manual_retry' && a.attempt_number < this.opts.maxAttempts) {
        const wait = this.opts.retryStepMs * a.attempt_number;
        a.next_attempt_at = pgTime(Date.now() + wait);
        const timer = setTimeout(() => {
          this.timers.delete(timer);
          this.attempt(ev, a.attempt_number + 1, 'automatic_retry');
        }, wait);
        this.timers.add(timer);
      }
    };
    const req = request(
      w.url,
      {
        method: 'POST',
        timeout: 5000,
        headers: {
          'content-type': 'application/json',
          'user-agent': 'magnolia-gateway/1.0',
          [SIGNATURE_HEADER]: `t=${t},v1=${v1}`,
          'X-Gateway-Event-Id': ev.id,
          'X-Gateway-Attempt-Id': a.id,
          'X-Gateway-Topic': ev.topic,
          'X-Gateway-Attempt-Number': String(a.attempt_number),
        },
      },
      (res) => {
        res.resume();
        res.on('end', () => done(res.statusCode ?? null, null));
      },
    );
    req.on('timeout', () => req.destroy(new Error('timeout')));
    req.on('error', (e: NodeJS.ErrnoException) => {
      if (a.status === 'queued') done(null, e.message === 'timeout' ? 'timeout' : 'connection_failed');
    });
    req.end(ev.body);
  }

  close(): void {
    for (const t of this.timers) clearTimeout(t);
    this.timers.clear();
  }
}
