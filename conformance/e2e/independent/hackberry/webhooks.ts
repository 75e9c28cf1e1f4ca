// Webhook receivers, signed deliveries and the attempt log. Deliveries are POSTed at once (no automatic
// retries: the team's worker only retries on request); every POST, first or re-triggered, is one row of
// `webhook_attempts` with a bigserial id, sent as Hackberry-Delivery; Hackberry-Signature carries t=,v1=.
import { createHmac, randomBytes, randomUUID } from 'node:crypto';
import { appendAudit } from './audit.ts';
import type { Principal } from './auth.ts';
import { Failure, type Rec } from './http.ts';
import { onlyFields } from './resources.ts';
import { type Attempt, type Store, WEBHOOK_EVENTS, type Webhook } from './state.ts';

export function signature(secret: string, t: number, raw: string): string {
  return `t=${t},v1=${createHmac('sha256', secret).update(`${t}.${raw}`).digest('hex')}`;
}

function view(a: Attempt): Rec {
  return {
    id: a.id,
    webhook_id: a.webhookId,
    event_id: a.eventId,
    event: a.event,
    attempt: a.attempt,
    replay_of: a.replayOf,
    outcome: a.outcome,
    status_code: a.status,
    attempted_at: a.at,
  };
}

function post(store: Store, hook: Webhook, a: Attempt): void {
  store.attempts.push(a);
  const t = Math.floor(Date.now() / 1000);
  fetch(hook.url, {
    method: 'POST',
    headers: {
      'content-type': 'application/json',
      'hackberry-signature': signature(hook.secret, t, a.body),
      'hackberry-delivery': String(a.id),
      'hackberry-event': a.event,
      'user-agent': 'hackberry-webhooks/1.0',
    },
    body: a.body,
    signal: AbortSignal.timeout(10_000),
  }).then(
    (r) => {
      a.status = r.status;
      a.outcome = r.ok ? 'delivered' : 'failed';
      return r.body?.cancel();
    },
    () => {
      a.outcome = 'failed';
    },
  );
}

export function deliverEvent(store: Store, tenant: string, event: string, data: Rec): void {
  const eventId = `evt_${randomBytes(12).toString('hex')}`;
  const body = JSON.stringify({ id: eventId, type: event, created_at: new Date().toISOString(), data });
  for (const hook of store.webhooks.values()) {
    if (hook.tenant !== tenant || !hook.events.includes(event)) continue;
    const id = store.nextAttemptId++;
    const at = new Date().toISOString();
    post(store, hook, {
      id,
      webhookId: hook.id,
      eventId,
      event,
      body,
      status: null,
      outcome: 'pending',
      attempt: 1,
      replayOf: null,
      at,
    });
  }
}

export function createWebhook(store: Store, who: Principal, body: Rec): Rec {
  onlyFields(body, ['url', 'events']);
  let url: URL;
  try {
    url = new URL(String(body.url));
  } catch {
    throw new Failure('invalid_request', 'url: expected an absolute http(s) URL');
  }
  if (typeof body.url !== 'string' || !/^https?:$/.test(url.protocol)) {
    throw new Failure('invalid_request', 'url: expected an absolute http(s) URL');
  }
  const events = body.events;
  if (!Array.isArray(events) || events.length === 0 || events.some((e) => !WEBHOOK_EVENTS.includes(e))) {
    throw new Failure('invalid_request', `events: one of ${WEBHOOK_EVENTS.join(', ')}`);
  }
  const hook: Webhook = {
    id: randomUUID(),
    tenant: who.tenant,
    url: body.url,
    events: [...new Set(events as string[])],
    secret: `whsec_${randomBytes(32).toString('hex')}`,
    createdAt: new Date().toISOString(),
  };
  store.webhooks.set(hook.id, hook);
  appendAudit(store, who, 'webhook.create', hook.id);
  return { id: hook.id, url: hook.url, events: hook.events, signing_secret: hook.secret, created_at: hook.createdAt };
}

export function ownHook(store: Store, who: Principal, id: string): Webhook {
  const hook = store.webhooks.get(id);
  if (!hook || hook.tenant !== who.tenant) throw new Failure('not_found', 'webhook not found');
  return hook;
}

export function deleteWebhook(store: Store, who: Principal, id: string): Rec {
  const hook = ownHook(store, who, id);
  store.webhooks.delete(hook.id);
  appendAudit(store, who, 'webhook.delete', hook.id);
  return { id: hook.id, deleted: true };
}

export function listAttempts(store: Store, who: Principal, id: string): Rec {
  const hook = ownHook(store, who, id);
  const attempts = store.attempts.filter((a) => a.webhookId === hook.id).map(view);
  return { webhook_id: hook.id, count: attempts.length, attempts };
}

export function retryAttempt(store: Store, who: Principal, id: string, attemptId: string): Rec {
  const hook = ownHook(store, who, id);
  const first = store.attempts.find((a) => String(a.id) === attemptId && a.webhookId === hook.id);
  if (!first) throw new Failure('not_found', 'delivery attempt not found');
  const count = store.attempts.filter((a) => a.eventId === first.eventId && a.webhookId === hook.id).length;
  const a: Attempt = {
    ...first,
    id: store.nextAttemptId++,
    status: null,
    outcome: 'pending',
    attempt: count + 1,
    replayOf: first.id,
    at: new Date().toISOString(),
  };
  post(store, hook, a);
  appendAudit(store, who, 'webhook.attempt.retry', String(a.id));
  return view(a);
}
