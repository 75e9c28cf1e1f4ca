// Webhook deliveries as Minion jobs: one job per (receiver, event), performed at once, retried on failure
// after Minion's default backoff of (retries ** 4) + 15 seconds, at most 5 attempts. A redelivery is
// Minion's `$job->retry`: the same job (same id, same body) performed again, with a fresh signature time.
import { createHmac } from 'node:crypto';
import { mojoJson } from './http.ts';
import { nextId, type Rec, type Store } from './state.ts';

const MAX_ATTEMPTS = 5;
export const SIGNATURE_HEADER = 'X-Guava-Signature';
export const DELIVERY_HEADER = 'X-Guava-Delivery';

export function sign(secret: string, t: number, raw: string): string {
  return `t=${t},v1=${createHmac('sha256', secret).update(`${t}.${raw}`).digest('hex')}`;
}

function loopback(url: string): boolean {
  try {
    return ['127.0.0.1', 'localhost', '[::1]'].includes(new URL(url).hostname);
  } catch {
    return false;
  }
}

async function perform(store: Store, job: Rec): Promise<void> {
  const hook = store.webhooks.find((w) => w.id === job.webhook_id);
  if (!hook) return;
  job.state = 'active';
  const t = Math.floor(Date.now() / 1000);
  const attempt: Rec = { number: job.attempts.length + 1, started: new Date().toISOString() };
  job.attempts.push(attempt);
  if (!loopback(hook.url)) {
    // The sandbox only ever calls loopback receivers; other addresses are logged as failed, not called.
    attempt.error = 'receiver address not reachable from the sandbox';
  } else {
    try {
      const res = await fetch(hook.url, {
        method: 'POST',
        headers: {
          'content-type': 'application/json',
          'user-agent': 'Mojolicious (Perl)',
          [SIGNATURE_HEADER]: sign(hook.secret, t, job.body),
          [DELIVERY_HEADER]: String(job.id),
          'X-Guava-Event': job.event,
        },
        body: job.body,
        signal: AbortSignal.timeout(5000),
      });
      attempt.status = res.status;
      await res.arrayBuffer().catch(() => undefined);
    } catch (err) {
      attempt.error = err instanceof Error ? err.message : 'delivery failed';
    }
  }
  attempt.finished = new Date().toISOString();
  const success = typeof attempt.status === 'number' && attempt.status >= 200 && attempt.status < 300;
  job.state = success ? 'finished' : 'failed';
  if (!success && job.attempts.length < MAX_ATTEMPTS && !store.closed) schedule(store, job, job.retries);
}

function schedule(store: Store, job: Rec, retries: number): void {
  const delay = (retries ** 4 + 15) * store.options.backoffSecondMs;
  job.state = 'inactive';
  job.delayed = new Date(Date.now() + delay).toISOString();
  const timer = setTimeout(() => {
    store.timers.delete(timer);
    job.retries += 1;
    void perform(store, job);
  }, delay);
  store.timers.add(timer);
}

/** Enqueues one job per receiver of the tenant subscribed to `event`. */
export function enqueue(store: Store, tenant: string, event: string, data: Rec): void {
  for (const hook of store.webhooks.filter((w) => w.tenant === tenant && w.events.includes(event))) {
    const eventId = nextId(store, 'events');
    const body = mojoJson({ id: eventId, event, created: new Date().toISOString(), tenant, data });
    const job: Rec = {
      id: nextId(store, 'minion_jobs'),
      webhook_id: hook.id,
      tenant,
      event_id: eventId,
      event,
      state: 'inactive',
      retries: 0,
      body,
      attempts: [],
    };
    store.jobs.push(job);
    const timer = setTimeout(() => {
      store.timers.delete(timer);
      void perform(store, job);
    }, store.options.jobDelayMs);
    store.timers.add(timer);
  }
}

/** `$job->retry`: perform the logged job again now, counted as one more retry. */
export function retryJob(store: Store, job: Rec): void {
  job.retries += 1;
  void perform(store, job);
}
