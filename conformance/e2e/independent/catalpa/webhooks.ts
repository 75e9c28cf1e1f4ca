// Webhook receivers and the delivery log ("attempts") with its resend; the signed deliveries are delivery.ts.
import { randomBytes } from 'node:crypto';
import { appendAudit } from './audit.ts';
import { send } from './delivery.ts';
import { ApiError, type Ctx, now, ok, readJson, uuid } from './http.ts';
import { idempotent } from './idempotency.ts';
import type { Attempt, State, Webhook } from './store.ts';
import { onlyFields } from './validate.ts';

export const EVENTS = [
  'connection.created',
  'connection.enabled',
  'connection.disabled',
  'order.created',
  'order.paid',
];

const publicWebhook = (w: Webhook) => ({
  id: w.id,
  url: w.url,
  events: w.events,
  status: w.status,
  createdAt: w.createdAt,
});

function ownWebhook(state: State, ctx: Ctx, id: string): Webhook {
  const w = state.webhooks.get(id);
  if (!w || w.tenant !== ctx.tenant || w.status === 'DELETED') {
    throw new ApiError(
      'not_found',
      'No webhook with this id exists for the tenant.',
      'Compare the identifier and the tenant header.',
    );
  }
  return w;
}

export async function registerWebhook(state: State, ctx: Ctx): Promise<void> {
  const body = await readJson(ctx);
  idempotent(
    state,
    ctx,
    true,
    body,
    () => {
      onlyFields(body, ['url', 'events']);
      const { url, events } = body;
      let parsed: URL | undefined;
      try {
        parsed = typeof url === 'string' && url.length <= 2048 ? new URL(url) : undefined;
      } catch {
        parsed = undefined;
      }
      if (!parsed || !['http:', 'https:'].includes(parsed.protocol)) {
        throw new ApiError(
          'invalid_request',
          'Field url must be an absolute http(s) URL of at most 2048 characters.',
          'Send the address of your receiver.',
        );
      }
      if (
        !Array.isArray(events) ||
        events.length < 1 ||
        events.length > EVENTS.length ||
        !events.every((e) => typeof e === 'string' && EVENTS.includes(e))
      ) {
        throw new ApiError(
          'invalid_request',
          'Field events must list 1 or more known event names.',
          `events: one of ${EVENTS.join(', ')}.`,
        );
      }
      const webhook: Webhook = {
        id: uuid(),
        tenant: ctx.tenant ?? '',
        url: parsed.href,
        events: [...new Set(events as string[])],
        secret: `whsec_${randomBytes(24).toString('base64url')}`,
        status: 'ENABLED',
        createdAt: now(),
      };
      state.webhooks.set(webhook.id, webhook);
      state.attempts.set(webhook.id, []);
      appendAudit(state, webhook.tenant, {
        action: 'WEBHOOK_CREATED',
        resourceType: 'webhook',
        resourceId: webhook.id,
        actor: ctx.clientId ?? '',
        requestId: ctx.requestId,
      });
      // The signing key is shown here and nowhere else (replays of this exact call repeat this answer).
      return { ...publicWebhook(webhook), signingKey: webhook.secret };
    },
    'webhook.create',
  );
}

export function listWebhooks(state: State, ctx: Ctx): void {
  const webhooks = [...state.webhooks.values()]
    .filter((w) => w.tenant === ctx.tenant && w.status !== 'DELETED')
    .map(publicWebhook);
  ok(ctx, { count: webhooks.length, webhooks });
}

export async function deleteWebhook(state: State, ctx: Ctx, id: string): Promise<void> {
  idempotent(
    state,
    ctx,
    true,
    {},
    () => {
      const w = ownWebhook(state, ctx, id);
      w.status = 'DELETED';
      appendAudit(state, w.tenant, {
        action: 'WEBHOOK_DELETED',
        resourceType: 'webhook',
        resourceId: w.id,
        actor: ctx.clientId ?? '',
        requestId: ctx.requestId,
      });
      return { id: w.id, status: 'DELETED' };
    },
    'webhook.delete',
  );
}

const view = (a: Attempt) => {
  const { payload: _p, ...rest } = a;
  return rest;
};

export function listAttempts(state: State, ctx: Ctx, id: string): void {
  if (state.options.legacyNoDeliveryLog && ctx.version === '2026-06-12') {
    throw new ApiError(
      'not_found',
      'The delivery log exists from version 2026-07-01 on.',
      'Send Service-Version: 2026-07-01.',
    );
  }
  const w = ownWebhook(state, ctx, id);
  const attempts = [...(state.attempts.get(w.id) ?? [])].reverse().map(view);
  ok(ctx, { webhookId: w.id, count: attempts.length, attempts });
}

export async function resendAttempt(state: State, ctx: Ctx, id: string, attemptId: string): Promise<void> {
  idempotent(
    state,
    ctx,
    true,
    {},
    () => {
      const w = ownWebhook(state, ctx, id);
      const original = (state.attempts.get(w.id) ?? []).find((a) => a.id === attemptId);
      if (!original)
        throw new ApiError(
          'not_found',
          'No attempt with this id exists for the webhook.',
          'List the attempts with GET /api/public/v1/webhooks/{id}/attempts.',
        );
      // Standard Webhooks resends the same message (same webhook-id); the switch gives a resend its own webhook-id.
      const messageId = state.options.resendNewMessageId ? uuid() : original.messageId;
      // The body (and its event id) is the original's, unchanged: a resend repeats the same event.
      const attempt = send(state, w, messageId, original.eventType, original.payload, 'RESEND', 1);
      appendAudit(state, w.tenant, {
        action: 'WEBHOOK_ATTEMPT_RESENT',
        resourceType: 'webhook',
        resourceId: w.id,
        actor: ctx.clientId ?? '',
        requestId: ctx.requestId,
        attemptId: attempt.id,
      });
      return view(attempt);
    },
    'webhook.attempt.resend',
  );
}
