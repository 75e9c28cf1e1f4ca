// Webhook deliveries as Sidekiq jobs: one job per event and receiver (its jid is the delivery id), signed
// at each attempt, retried on Sidekiq's schedule ((count**4) + 15 + rand(10) * (count + 1) seconds, scaled
// by retryScale for tests) up to 8 retries, then dead. Every attempt is logged; a delivery can be retried
// on request as a new job carrying the same event.
import { createHmac, randomBytes, randomUUID } from 'node:crypto';
import { later, type State } from './state.ts';
import { jsonText } from './util.ts';

export const SIGNATURE_HEADER = 'X-Cypress-Signature';
const MAX_RETRIES = 8;

export interface Webhook {
  id: string;
  tenant: string;
  url: string;
  events: string[];
  signingKey: string;
  status: string;
  createdAt: string;
}

export interface Attempt {
  attemptedAt: string;
  responseStatus: number | null;
  error: string | null;
  durationMs: number;
}

export interface Delivery {
  id: string;
  webhookId: string;
  tenant: string;
  eventId: string;
  event: string;
  body: string;
  status: 'enqueued' | 'retrying' | 'succeeded' | 'dead';
  retryCount: number;
  attempts: Attempt[];
  nextRetryAt: string | null;
  createdAt: string;
  retryOf: string | null;
}

export interface WebhookState {
  hooks: Map<string, Webhook>;
  deliveries: Map<string, Delivery>;
}

export function newWebhookState(): WebhookState {
  return { hooks: new Map(), deliveries: new Map() };
}

/** A Sidekiq jid: 12 random bytes in hex. */
function jid(): string {
  return randomBytes(12).toString('hex');
}

export function sign(key: string, body: string, t = Math.floor(Date.now() / 1000)): string {
  return `t=${t},v1=${createHmac('sha256', key).update(`${t}.${body}`).digest('hex')}`;
}

/** The log entry (jbuilder partial): everything but the body and the tenant. */
export function deliveryView(d: Delivery): Record<string, unknown> {
  const last = d.attempts[d.attempts.length - 1];
  return {
    id: d.id,
    webhookId: d.webhookId,
    eventId: d.eventId,
    event: d.event,
    status: d.status,
    retryCount: d.retryCount,
    attemptCount: d.attempts.length,
    lastResponseStatus: last?.responseStatus ?? null,
    lastError: last?.error ?? null,
    attempts: d.attempts,
    nextRetryAt: d.nextRetryAt,
    retryOf: d.retryOf,
    createdAt: d.createdAt,
  };
}

/** after_commit: one job per subscribed receiver of the tenant. */
export function emit(state: State, tenant: string, event: string, data: Record<string, unknown>): void {
  for (const hook of state.webhooks.hooks.values()) {
    if (hook.tenant !== tenant || hook.status !== 'enabled' || !hook.events.includes(event)) continue;
    const eventId = randomUUID();
    const body = jsonText({ id: eventId, type: event, createdAt: state.iso(), webhookId: hook.id, data });
    enqueue(state, hook, eventId, event, body, null);
  }
}

export function enqueue(
  state: State,
  hook: Webhook,
  eventId: string,
  event: string,
  body: string,
  retryOf: string | null,
): Delivery {
  const d: Delivery = {
    id: jid(),
    webhookId: hook.id,
    tenant: hook.tenant,
    eventId,
    event,
    body,
    status: 'enqueued',
    retryCount: 0,
    attempts: [],
    nextRetryAt: null,
    createdAt: state.iso(),
    retryOf,
  };
  state.webhooks.deliveries.set(d.id, d);
  later(state, retryOf ? 0 : state.options.deliveryDelayMs, () => void perform(state, d));
  return d;
}

function failureText(err: unknown): string {
  const cause = (err as { cause?: { code?: string } }).cause;
  if (cause?.code) return `connection failed (${cause.code})`;
  if ((err as Error).name === 'TimeoutError') return 'timed out after 5 s';
  return 'connection failed';
}

async function perform(state: State, d: Delivery): Promise<void> {
  const hook = state.webhooks.hooks.get(d.webhookId);
  if (!hook) return;
  const started = Date.now();
  const attempt: Attempt = { attemptedAt: state.iso(started), responseStatus: null, error: null, durationMs: 0 };
  try {
    const res = await fetch(hook.url, {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        'user-agent': 'Cypress-Webhooks/1.0 (Sidekiq)',
        [SIGNATURE_HEADER]: sign(hook.signingKey, d.body),
        'X-Cypress-Event': d.event,
        'X-Cypress-Delivery': d.id,
        'X-Cypress-Retry-Count': String(d.retryCount),
      },
      body: d.body,
      signal: AbortSignal.timeout(5000),
    });
    await res.arrayBuffer().catch(() => undefined);
    attempt.responseStatus = res.status;
    if (res.status < 200 || res.status > 299) attempt.error = `receiver answered ${res.status}`;
  } catch (err) {
    attempt.error = failureText(err);
  }
  attempt.durationMs = Date.now() - started;
  d.attempts.push(attempt);
  if (attempt.error === null) {
    d.status = 'succeeded';
    d.nextRetryAt = null;
    return;
  }
  if (d.retryCount >= MAX_RETRIES) {
    d.status = 'dead';
    d.nextRetryAt = null;
    return;
  }
  const count = d.retryCount;
  const seconds = count ** 4 + 15 + Math.floor(Math.random() * 10) * (count + 1);
  const ms = Math.round(seconds * 1000 * state.options.retryScale);
  d.status = 'retrying';
  d.retryCount += 1;
  d.nextRetryAt = state.iso(Date.now() + ms);
  later(state, ms, () => void perform(state, d));
}
