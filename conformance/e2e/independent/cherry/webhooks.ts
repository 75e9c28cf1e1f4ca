// Webhook endpoints and an Oban-like job queue: one job per (event, endpoint), attempted by a polling worker,
// retried with backoff; the delivery log is the jobs table, keyed by job id (a per-tenant integer).
import { createHmac, randomBytes } from 'node:crypto';
import { isoNow } from './conn.ts';
import { nextId, type Store } from './store.ts';

export const EVENT_NAMES = ['connection.created', 'connection.activated', 'order.created', 'order.paid'];
export const SIGNATURE_HEADER = 'x-cherry-signature';
const BACKOFF_MS = [1000, 4000];
const MAX_ATTEMPTS = 3;

export interface Endpoint {
  id: string;
  tenant: string;
  url: string;
  events: string[];
  signingKey: string;
  createdAt: string;
  deleted: boolean;
}

export interface Attempt {
  attempt: number;
  at: string;
  status: number | null;
  error: string | null;
  durationMs: number;
}

export interface Job {
  id: string;
  tenant: string;
  webhookId: string;
  queue: 'webhooks';
  worker: 'Cherry.Workers.WebhookDelivery';
  state: 'available' | 'executing' | 'completed' | 'retryable' | 'discarded';
  event: string;
  eventId: string;
  payload: string;
  attempt: number;
  maxAttempts: number;
  scheduledAt: number;
  insertedAt: string;
  completedAt: string | null;
  attempts: Attempt[];
}

export interface Queue {
  endpoints: Endpoint[];
  jobs: Job[];
  timer?: NodeJS.Timeout;
  running: Set<Promise<void>>;
}

export function createQueue(): Queue {
  return { endpoints: [], jobs: [], running: new Set() };
}

export function newSigningKey(): string {
  return `whsec_${randomBytes(24).toString('base64url')}`;
}

/** t=<unix seconds>,v1=<hex HMAC-SHA256 over "<t>.<raw body>">. */
export function sign(key: string, body: string, t: number): string {
  return `t=${t},v1=${createHmac('sha256', key).update(`${t}.${body}`).digest('hex')}`;
}

/** Enqueues one job per live endpoint of the tenant subscribed to the event (Oban.insert_all). */
export function emit(q: Queue, store: Store, tenant: string, event: string, attributes: Record<string, unknown>): void {
  for (const ep of q.endpoints) {
    if (ep.deleted || ep.tenant !== tenant || !ep.events.includes(event)) continue;
    const eventId = nextId(store, tenant, 'events');
    const occurredAt = isoNow();
    const payload = JSON.stringify({
      data: { id: eventId, type: event, attributes },
      meta: { event, eventId, webhookId: ep.id, occurredAt },
    });
    q.jobs.push({
      id: nextId(store, tenant, 'oban_jobs'),
      tenant,
      webhookId: ep.id,
      queue: 'webhooks',
      worker: 'Cherry.Workers.WebhookDelivery',
      state: 'available',
      event,
      eventId,
      payload,
      attempt: 0,
      maxAttempts: MAX_ATTEMPTS,
      scheduledAt: Date.now(),
      insertedAt: occurredAt,
      completedAt: null,
      attempts: [],
    });
  }
}

async function perform(q: Queue, job: Job): Promise<void> {
  const ep = q.endpoints.find((e) => e.id === job.webhookId && e.tenant === job.tenant);
  job.attempt += 1;
  const started = Date.now();
  const at = isoNow(started);
  if (!ep || ep.deleted) {
    job.state = 'discarded';
    job.attempts.push({ attempt: job.attempt, at, status: null, error: 'endpoint removed', durationMs: 0 });
    return;
  }
  let status: number | null = null;
  let error: string | null = null;
  try {
    const res = await fetch(ep.url, {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        'user-agent': 'cherry-webhooks/1.0 (Req)',
        [SIGNATURE_HEADER]: sign(ep.signingKey, job.payload, Math.floor(Date.now() / 1000)),
        'x-cherry-event': job.event,
        'x-cherry-delivery': job.id,
      },
      body: job.payload,
      signal: AbortSignal.timeout(5000),
    });
    status = res.status;
    await res.arrayBuffer().catch(() => undefined);
    if (status < 200 || status > 299) error = `receiver answered ${status}`;
  } catch (e) {
    error = e instanceof Error && e.name === 'TimeoutError' ? 'receiver timed out' : 'receiver unreachable';
  }
  job.attempts.push({ attempt: job.attempt, at, status, error, durationMs: Date.now() - started });
  if (error === null) {
    job.state = 'completed';
    job.completedAt = isoNow();
  } else if (job.attempt >= job.maxAttempts) {
    job.state = 'discarded';
  } else {
    job.state = 'retryable';
    job.scheduledAt = Date.now() + (BACKOFF_MS[job.attempt - 1] ?? 4000);
  }
}

/** The worker: polls the queue like Oban's producer, running due jobs concurrently. */
export function startWorker(q: Queue, pollMs = 25): void {
  q.timer = setInterval(() => {
    const now = Date.now();
    for (const job of q.jobs) {
      if ((job.state === 'available' || job.state === 'retryable') && job.scheduledAt <= now) {
        job.state = 'executing';
        const p = perform(q, job).finally(() => q.running.delete(p));
        q.running.add(p);
      }
    }
  }, pollMs);
  q.timer.unref();
}

export async function stopWorker(q: Queue): Promise<void> {
  if (q.timer) clearInterval(q.timer);
  await Promise.allSettled([...q.running]);
}

/** Oban.retry_job/1: the job becomes available again with one more attempt allowed. */
export function retryJob(job: Job): void {
  job.maxAttempts = Math.max(job.maxAttempts, job.attempt + 1);
  job.state = 'available';
  job.scheduledAt = Date.now();
  job.completedAt = null;
}

export function jobView(job: Job): Record<string, unknown> {
  return {
    id: job.id,
    type: 'webhook_delivery',
    webhookId: job.webhookId,
    queue: job.queue,
    worker: job.worker,
    state: job.state,
    event: job.event,
    eventId: job.eventId,
    attempt: job.attempt,
    maxAttempts: job.maxAttempts,
    insertedAt: job.insertedAt,
    completedAt: job.completedAt,
    attempts: job.attempts.map((a) => ({ ...a })),
  };
}

export function endpointView(ep: Endpoint, withKey: boolean): Record<string, unknown> {
  const view: Record<string, unknown> = {
    id: ep.id,
    type: 'webhook_endpoint',
    url: ep.url,
    events: [...ep.events],
    createdAt: ep.createdAt,
  };
  if (withKey) view.signingKey = ep.signingKey;
  view.links = { deliveries: `/api/public/v1/webhooks/${ep.id}/deliveries` };
  return view;
}
