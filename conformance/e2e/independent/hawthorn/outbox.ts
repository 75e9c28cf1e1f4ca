// The webhook outbox: events are appended to a topic (a Kafka topic "webhook-deliveries" in production,
// an in-memory log here), a relay consumes it and POSTs each delivery with SmallRye Fault Tolerance
// semantics: @Timeout per attempt, @Retry with exponential backoff (HAWTHORN_RETRY_DELAY_MS shortens it),
// every attempt recorded in the delivery log. Each attempt is signed when it is sent:
// Hawthorn-Signature: t=<unix-seconds>,v1=<hex HMAC-SHA256(key, t + "." + raw body)>.
import { createHmac } from 'node:crypto';
import { nowIso } from './util.ts';

export interface Attempt {
  attempt: number;
  at: string;
  outcome: 'DELIVERED' | 'FAILED';
  httpStatus: number | null;
  error: string | null;
  durationMs: number;
}

export interface Delivery {
  id: number;
  webhookId: string;
  tenant: string;
  eventId: string;
  eventType: string;
  status: 'PENDING' | 'RETRY_SCHEDULED' | 'DELIVERED' | 'FAILED';
  createdAt: string;
  resendOf: number | null;
  attempts: Attempt[];
  /** The raw body, kept so a resend sends the same event (not exposed in the log). */
  body: string;
  url: string;
  key: string;
}

export interface OutboxConfig {
  maxRetries: number;
  retryDelayMs: number;
  attemptTimeoutMs: number;
  /** The relay's poll interval: a delivery leaves this long after its event (default at once). */
  relayDelayMs: number;
}

export function signature(key: string, body: string, t = Math.floor(Date.now() / 1000)): string {
  return `t=${t},v1=${createHmac('sha256', key).update(`${t}.${body}`).digest('hex')}`;
}

export class Outbox {
  readonly deliveries: Delivery[] = [];
  private nextId = 1000;
  private timers = new Set<NodeJS.Timeout>();
  private cfg: OutboxConfig;
  private closed = false;

  constructor(cfg: OutboxConfig) {
    this.cfg = cfg;
  }

  enqueue(d: Omit<Delivery, 'id' | 'status' | 'createdAt' | 'attempts'>): Delivery {
    const delivery: Delivery = { ...d, id: this.nextId++, status: 'PENDING', createdAt: nowIso(), attempts: [] };
    this.deliveries.push(delivery);
    this.schedule(delivery, this.cfg.relayDelayMs);
    return delivery;
  }

  private schedule(d: Delivery, delayMs: number): void {
    if (this.closed) return;
    const timer = setTimeout(() => {
      this.timers.delete(timer);
      void this.attempt(d);
    }, delayMs);
    this.timers.add(timer);
  }

  private async attempt(d: Delivery): Promise<void> {
    const started = Date.now();
    const n = d.attempts.length + 1;
    let httpStatus: number | null = null;
    let error: string | null = null;
    try {
      const res = await fetch(d.url, {
        method: 'POST',
        headers: {
          'content-type': 'application/json',
          'user-agent': 'hawthorn-webhooks/1.0 (Quarkus REST Client)',
          'hawthorn-signature': signature(d.key, d.body),
          'hawthorn-delivery-id': String(d.id),
          'hawthorn-event-type': d.eventType,
          'hawthorn-webhook-id': d.webhookId,
          'hawthorn-attempt': String(n),
        },
        body: d.body,
        signal: AbortSignal.timeout(this.cfg.attemptTimeoutMs),
      });
      httpStatus = res.status;
      await res.body?.cancel();
    } catch (err) {
      const e = err as { name?: string; cause?: { code?: string } };
      error = e.name === 'TimeoutError' ? 'timeout' : (e.cause?.code ?? 'connection failed');
    }
    const ok = httpStatus !== null && httpStatus >= 200 && httpStatus < 300;
    if (!ok && error === null) error = `receiver answered ${httpStatus}`;
    d.attempts.push({
      attempt: n,
      at: new Date(started).toISOString(),
      outcome: ok ? 'DELIVERED' : 'FAILED',
      httpStatus,
      error,
      durationMs: Date.now() - started,
    });
    if (ok) d.status = 'DELIVERED';
    else if (n <= this.cfg.maxRetries) {
      d.status = 'RETRY_SCHEDULED';
      this.schedule(d, this.cfg.retryDelayMs * 2 ** (n - 1));
    } else d.status = 'FAILED';
  }

  close(): void {
    this.closed = true;
    for (const t of this.timers) clearTimeout(t);
    this.timers.clear();
  }
}
