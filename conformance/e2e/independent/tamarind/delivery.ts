// Webhook deliveries as a Celery task: `deliver_webhook` with autoretry_for=(RequestException,),
// retry_backoff=True, retry_jitter=True and max_retries=5, so a failing receiver is tried again after
// roughly 1, 2, 4, 8, 16 s. Each attempt is signed afresh: t=<unix seconds>,v1=<hex HMAC-SHA256 of
// "<t>.<raw body>">, in X-Tamarind-Signature; X-Tamarind-Delivery carries the delivery row's id.
import { createHmac } from 'node:crypto';
import { request } from 'node:http';
import { type Delivery, nowIso, type Store, type Webhook } from './state.ts';

export const SIGNATURE_HEADER = 'X-Tamarind-Signature';
export const DELIVERY_HEADER = 'X-Tamarind-Delivery';

export function signature(secret: string, body: string, t = Math.floor(Date.now() / 1000)): string {
  return `t=${t},v1=${createHmac('sha256', secret).update(`${t}.${body}`).digest('hex')}`;
}

function post(url: string, body: string, headers: Record<string, string>): Promise<number> {
  return new Promise((resolve, reject) => {
    const req = request(url, { method: 'POST', headers, timeout: 5000 }, (res) => {
      res.resume();
      res.on('end', () => resolve(res.statusCode ?? 0));
    });
    req.on('timeout', () => req.destroy(new Error('timeout')));
    req.on('error', reject);
    req.end(body);
  });
}

export class Worker {
  private readonly timers = new Set<NodeJS.Timeout>();
  private stopped = false;
  readonly store: Store;
  constructor(store: Store) {
    this.store = store;
  }

  /** Queues a delivery row for the receiver and runs its first attempt on the next tick (apply_async). */
  enqueue(hook: Webhook, eventId: number | string, event: string, body: string, redeliveryOf: number | null): Delivery {
    const d: Delivery = {
      pk: this.store.seq.take('deliveries'),
      webhook_pk: hook.pk,
      event_id: eventId,
      event,
      body,
      status: 'queued',
      attempts: 0,
      response_status: null,
      redelivery_of: redeliveryOf,
      created_at: nowIso(),
      last_attempt_at: null,
    };
    this.store.deliveries.push(d);
    this.later(() => this.attempt(hook, d), this.store.options.deliveryDelayMs);
    return d;
  }

  /** Runs a logged delivery again as the same row (Celery's retry of the same task with its delivery id). */
  requeue(hook: Webhook, d: Delivery): Delivery {
    d.status = 'queued';
    this.later(() => this.attempt(hook, d), this.store.options.deliveryDelayMs);
    return d;
  }

  private later(fn: () => void, ms: number): void {
    if (this.stopped) return;
    const t = setTimeout(() => {
      this.timers.delete(t);
      fn();
    }, ms);
    this.timers.add(t);
  }

  private async attempt(hook: Webhook, d: Delivery): Promise<void> {
    if (this.stopped || hook.deleted) return;
    d.attempts += 1;
    d.last_attempt_at = nowIso();
    try {
      const status = await post(hook.url, d.body, {
        'content-type': 'application/json',
        'user-agent': 'tamarind-webhooks/1.0 (celery)',
        [SIGNATURE_HEADER]: signature(hook.secret, d.body),
        ...(this.store.options.uuidEventIds ? {} : { [DELIVERY_HEADER]: String(d.pk) }),
        'x-tamarind-event': d.event,
      });
      d.response_status = status;
      if (status >= 200 && status < 300) {
        d.status = 'succeeded';
        return;
      }
    } catch {
      d.response_status = null;
    }
    const { maxRetries, retryBackoffMs } = this.store.options;
    if (d.attempts > maxRetries) {
      d.status = 'failed';
      return;
    }
    d.status = 'retrying';
    // retry_jitter draws the countdown uniformly below the exponential backoff, as Celery's get_exponential_backoff_interval.
    const backoff = retryBackoffMs * 2 ** (d.attempts - 1);
    this.later(() => this.attempt(hook, d), Math.max(50, Math.random() * backoff));
  }

  stop(): void {
    this.stopped = true;
    for (const t of this.timers) clearTimeout(t);
  }
}
