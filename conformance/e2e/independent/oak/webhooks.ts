// Webhook receivers: registration (signing key shown once), signed deliveries (header `Signature:
// t=<unix>,v1=<hex>` over "<t>.<raw body>"), retries, the delivery log (`attempts`) and a selective resend.
import { createHmac, randomBytes } from 'node:crypto';
import { request } from 'node:http';
import { appendAudit } from './audit.ts';
import type { Call } from './http-kit.ts';
import { isoMicros, jsonText, sendError, sendOk } from './http-kit.ts';
import { answerAndStore, fingerprint, replayOrConflict, takeKey } from './idempotency.ts';
import type { Attempt, State, Webhook } from './state.ts';
import { later } from './state.ts';
import { parseBody, validate } from './validate.ts';

export const EVENTS = [
  'connection.created',
  'connection.enabled',
  'connection.disabled',
  'order.created',
  'order.paid',
];
/** Retries after a failed automatic delivery: 10 s, then 60 s (a queued job's backoff). */
const RETRY_DELAYS_MS = [10_000, 60_000];

function view(w: Webhook) {
  return { id: w.id, url: w.url, events: [...w.events], status: w.status, createdAt: w.createdAt };
}

function attemptView(a: Attempt) {
  const status = a.responseStatus === null && !a.error ? 'pending' : a.succeeded ? 'succeeded' : 'failed';
  return {
    id: a.id,
    eventId: a.eventId,
    event: a.event,
    trigger: a.trigger,
    status,
    responseStatus: a.responseStatus,
    ...(a.error ? { error: a.error } : {}),
    attemptedAt: a.attemptedAt,
  };
}

export function sign(key: string, t: number, body: string): string {
  return `t=${t},v1=${createHmac('sha256', key).update(`${t}.${body}`).digest('hex')}`;
}

function deliver(
  state: State,
  w: Webhook,
  eventId: string,
  event: string,
  body: string,
  trigger: Attempt['trigger'],
  retry: number,
): Attempt {
  const a: Attempt = {
    id: String(state.nextId.attempt++),
    webhookId: w.id,
    eventId,
    event,
    trigger,
    body,
    responseStatus: null,
    succeeded: false,
    attemptedAt: isoMicros(),
  };
  state.attempts.push(a);
  const t = Math.floor(Date.now() / 1000);
  const finish = (status: number | null, error?: string) => {
    a.responseStatus = status;
    a.succeeded = status !== null && status >= 200 && status < 300;
    if (error) a.error = error;
    const delay = RETRY_DELAYS_MS[retry];
    if (!a.succeeded && trigger !== 'resend' && delay !== undefined && w.status === 'enabled') {
      later(state, delay, () => deliver(state, w, eventId, event, body, 'retry', retry + 1));
    }
  };
  try {
    const req = request(w.url, {
      method: 'POST',
      timeout: 5000,
      headers: {
        'content-type': 'application/json',
        'user-agent': 'Oak-Webhooks/1.0',
        signature: sign(w.signingKey, t, body),
        'webhook-id': eventId,
        'webhook-event': event,
        'webhook-attempt': a.id,
      },
    });
    req.on('response', (res) => {
      res.resume();
      finish(res.statusCode ?? null);
    });
    req.on('timeout', () => req.destroy(new Error('timeout')));
    req.on('error', (e) =>
      finish(
        null,
        e.message === 'timeout' ? 'The receiver did not answer within 5 s.' : 'The receiver could not be reached.',
      ),
    );
    req.end(body);
  } catch {
    finish(null, 'The receiver address could not be used.');
  }
  return a;
}

/** Sends an event to every enabled receiver of the tenant subscribed to it. */
export function dispatch(state: State, tenant: string, event: string, data: Record<string, unknown>): void {
  for (const w of state.webhooks) {
    if (w.tenant !== tenant || w.status !== 'enabled' || !w.events.includes(event)) continue;
    const eventId = String(state.nextId.event++);
    const body = jsonText({ id: eventId, event, createdAt: isoMicros(), data }, 0, state.options.escapeSlashes);
    const send = () => deliver(state, w, eventId, event, body, 'automatic', 0);
    // Deliveries are queued jobs; a worker picks them up after queueDelayMs.
    if (state.options.queueDelayMs > 0) later(state, state.options.queueDelayMs, send);
    else send();
  }
}

function validUrl(value: string): boolean {
  try {
    const u = new URL(value);
    return (u.protocol === 'https:' || u.protocol === 'http:') && value.length <= 2048;
  } catch {
    return false;
  }
}

export function registerWebhook(state: State, call: Call, raw: string | undefined): void {
  if (!takeKey(call, true)) return;
  const body = parseBody(call, raw);
  const rules = {
    url: { kind: 'string', min: 8, max: 2048, required: true },
    events: { kind: 'strings', minItems: 1, maxItems: EVENTS.length, min: 2, max: 120, required: true },
  } as const;
  if (!body || !validate(call, body, rules, state.options.strictBodies)) return;
  if (!validUrl(String(body.url))) {
    sendError(call, 'invalid_request', 'The given data was invalid.', 'The url field must be an http or https URL.');
    return;
  }
  const events = body.events as string[];
  if (events.some((e) => !EVENTS.includes(e))) {
    sendError(
      call,
      'invalid_request',
      'The given data was invalid.',
      'The events field names an unknown event.',
      `Known events: ${EVENTS.join(', ')}.`,
    );
    return;
  }
  const print = fingerprint('POST /webhooks', body);
  if (replayOrConflict(state, call, print)) return;
  const w: Webhook = {
    id: String(state.nextId.webhook++),
    tenant: call.tenant ?? '',
    url: String(body.url),
    events: [...new Set(events)],
    status: 'enabled',
    signingKey: `whsec_${randomBytes(24).toString('hex')}`,
    createdAt: isoMicros(),
  };
  state.webhooks.push(w);
  appendAudit(state, w.tenant, {
    event: 'webhook.created',
    subjectType: 'webhook',
    subjectId: w.id,
    actor: call.clientId ?? '',
    requestId: call.requestId,
  });
  // The signing key is in this answer (and its replay) only; no read shows it again.
  answerAndStore(state, call, print, { ...view(w), signingKey: w.signingKey });
}

function ownWebhook(state: State, call: Call, id: string): Webhook | undefined {
  const w = state.webhooks.find((x) => x.id === id && x.tenant === call.tenant && x.status !== 'deleted');
  if (!w)
    sendError(
      call,
      'not_found',
      'No query results for model [Webhook].',
      'No webhook receiver of this tenant has this id.',
    );
  return w;
}

export function showWebhook(state: State, call: Call, id: string): void {
  const w = ownWebhook(state, call, id);
  if (w) sendOk(call, view(w));
}

export function deleteWebhook(state: State, call: Call, id: string): void {
  if (!takeKey(call, true)) return;
  const print = fingerprint(`DELETE /webhooks/${id}`, undefined);
  if (replayOrConflict(state, call, print)) return;
  const w = ownWebhook(state, call, id);
  if (!w) return;
  w.status = 'deleted';
  appendAudit(state, w.tenant, {
    event: 'webhook.deleted',
    subjectType: 'webhook',
    subjectId: w.id,
    actor: call.clientId ?? '',
    requestId: call.requestId,
  });
  answerAndStore(state, call, print, { id: w.id, deleted: true });
}

export function listAttempts(state: State, call: Call, id: string): void {
  const w = ownWebhook(state, call, id);
  if (!w) return;
  const attempts = state.attempts
    .filter((a) => a.webhookId === w.id)
    .reverse()
    .map(attemptView);
  sendOk(call, { webhookId: w.id, count: attempts.length, attempts });
}

export function resendAttempt(state: State, call: Call, id: string, attemptId: string): void {
  if (!takeKey(call, true)) return;
  const print = fingerprint(`POST /webhooks/${id}/attempts/${attemptId}/resend`, undefined);
  if (replayOrConflict(state, call, print)) return;
  const w = ownWebhook(state, call, id);
  if (!w) return;
  const original = state.attempts.find((a) => a.id === attemptId && a.webhookId === w.id);
  if (!original) {
    sendError(
      call,
      'not_found',
      'No query results for model [WebhookAttempt].',
      'This receiver has no attempt with this id.',
    );
    return;
  }
  const a = deliver(state, w, original.eventId, original.event, original.body, 'resend', 0);
  appendAudit(state, w.tenant, {
    event: 'webhook.attempt.resent',
    subjectType: 'webhook',
    subjectId: w.id,
    actor: call.clientId ?? '',
    requestId: call.requestId,
  });
  answerAndStore(state, call, print, { webhookId: w.id, resentFrom: original.id, attempt: attemptView(a) });
}
