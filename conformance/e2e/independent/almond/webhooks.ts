// Webhook deliveries: an event bus consumer turns connection events into deliveries, a WebClient-like POST
// signs each attempt (X-Almond-Signature: t=<unix>,v1=<hex HMAC-SHA256 of "<t>.<raw body>">), a circuit
// breaker per receiver stops hammering a failing one, and failed attempts retry with exponential waits.
import { createHmac, randomBytes } from 'node:crypto';
import { CONNECTION_EVENTS, type ConnectionEvent, type EventBus } from './eventbus.ts';
import type { Delivery, DeliveryAttempt, Settings, Webhook } from './types.ts';
import { isoNow, uuid } from './util.ts';

export const SIGNATURE_HEADER = 'X-Almond-Signature';
export const DELIVERY_HEADER = 'X-Almond-Delivery';
export const WEBHOOK_EVENTS = ['connection.created', 'connection.state-changed', 'order.created', 'order.paid'];
const LOOPBACK = new Set(['127.0.0.1', 'localhost', '[::1]', '::1']);

interface Breaker {
  failures: number;
  openUntil: number;
}

export function signature(secret: string, t: number, body: string): string {
  return `t=${t},v1=${createHmac('sha256', secret).update(`${t}.${body}`).digest('hex')}`;
}

export class WebhookService {
  readonly webhooks = new Map<string, Webhook>();
  readonly deliveries = new Map<string, Delivery>();
  private readonly breakers = new Map<string, Breaker>();
  private readonly timers = new Set<NodeJS.Timeout>();
  private readonly settings: Settings;
  private closed = false;

  constructor(bus: EventBus, settings: Settings) {
    this.settings = settings;
    bus.consumer<ConnectionEvent>(CONNECTION_EVENTS, (e) => this.dispatch(e));
  }

  register(tenantId: string, url: string, events: string[]): Webhook {
    const hook: Webhook = {
      id: uuid(),
      tenantId,
      url,
      events,
      status: 'active',
      secret: `whsec_${randomBytes(24).toString('base64url')}`,
      createdAt: isoNow(),
    };
    this.webhooks.set(hook.id, hook);
    return hook;
  }

  private dispatch(e: ConnectionEvent): void {
    for (const hook of this.webhooks.values()) {
      if (hook.status !== 'active' || hook.tenantId !== e.tenantId || !hook.events.includes(e.type)) continue;
      const payload = JSON.stringify({
        id: e.eventId,
        type: e.type,
        createdAt: e.at,
        tenantId: e.tenantId,
        data: {
          connectionId: e.connectionId,
          connectorId: e.connectorId,
          environment: e.environment,
          state: e.state,
          previousState: e.previousState,
        },
      });
      const now = isoNow();
      const delivery: Delivery = {
        id: uuid(),
        webhookId: hook.id,
        tenantId: hook.tenantId,
        eventId: e.eventId,
        event: e.type,
        payload,
        status: 'pending',
        attempts: [],
        createdAt: now,
        updatedAt: now,
      };
      this.deliveries.set(delivery.id, delivery);
      this.later(0, () => void this.attempt(delivery, 'automatic'));
    }
  }

  private later(ms: number, fn: () => void): void {
    if (this.closed) return;
    const t = setTimeout(() => {
      this.timers.delete(t);
      fn();
    }, ms);
    this.timers.add(t);
  }

  /** One attempt through the breaker; an automatic failure schedules the next try (retryMs * 2^(n-1)). */
  async attempt(delivery: Delivery, trigger: DeliveryAttempt['trigger']): Promise<DeliveryAttempt> {
    const hook = this.webhooks.get(delivery.webhookId);
    const breaker = this.breakers.get(delivery.webhookId) ?? { failures: 0, openUntil: 0 };
    this.breakers.set(delivery.webhookId, breaker);
    const number = delivery.attempts.length + 1;
    const started = Date.now();
    const record: DeliveryAttempt = {
      number,
      trigger,
      at: isoNow(),
      statusCode: null,
      durationMs: 0,
      outcome: 'failed',
    };
    delivery.attempts.push(record);
    if (trigger !== 'manual' && breaker.openUntil > started) {
      record.outcome = 'circuit-open';
      record.error = 'Circuit breaker is open';
    } else {
      try {
        const url = new URL(hook?.url ?? 'http://invalid.invalid/');
        if (!LOOPBACK.has(url.hostname)) throw new Error(`Receiver host ${url.hostname} is outside loopback`);
        const t = Math.floor(Date.now() / 1000);
        const res = await fetch(url, {
          method: 'POST',
          headers: {
            'content-type': 'application/json',
            'user-agent': 'Vert.x-WebClient/4.5.10',
            [SIGNATURE_HEADER]: signature(hook?.secret ?? '', t, delivery.payload),
            [DELIVERY_HEADER]: delivery.id,
            'X-Almond-Event': delivery.event,
            'X-Almond-Attempt': String(number),
          },
          body: delivery.payload,
          signal: AbortSignal.timeout(5000),
        });
        await res.arrayBuffer().catch(() => undefined);
        record.statusCode = res.status;
        record.outcome = res.status >= 200 && res.status < 300 ? 'succeeded' : 'failed';
        if (record.outcome === 'failed') record.error = `Response status code ${res.status} is not between 200 and 299`;
      } catch (err) {
        record.error = err instanceof Error ? err.message : String(err);
      }
    }
    record.durationMs = Date.now() - started;
    delivery.updatedAt = isoNow();
    if (record.outcome === 'succeeded') {
      breaker.failures = 0;
      delivery.status = 'succeeded';
      return record;
    }
    if (record.outcome === 'failed') breaker.failures += 1;
    if (breaker.failures >= this.settings.breakerMaxFailures)
      breaker.openUntil = Date.now() + this.settings.breakerResetMs;
    const automatic = delivery.attempts.filter((a) => a.trigger !== 'manual').length;
    if (trigger !== 'manual' && automatic < this.settings.webhookAttempts) {
      delivery.status = 'retrying';
      this.later(this.settings.webhookRetryMs * 2 ** (automatic - 1), () => void this.attempt(delivery, 'retry'));
    } else if (delivery.status !== 'succeeded') delivery.status = 'failed';
    return record;
  }

  /** A delivery as the delivery log shows it (the raw payload stays inside). */
  view(d: Delivery): Record<string, unknown> {
    const { payload: _payload, tenantId: _tenant, ...rest } = d;
    return { ...rest, attemptCount: d.attempts.length };
  }

  close(): void {
    this.closed = true;
    for (const t of this.timers) clearTimeout(t);
    this.timers.clear();
  }
}
