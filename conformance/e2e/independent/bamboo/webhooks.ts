// Webhook endpoints (Svix's "endpoints"): keyed registration whose answer carries the secret once
// (`secret`, whsec_…), listing without secrets, keyed removal, and the delivery log as messages with their
// attempts (GET /webhooks/{webhookId}/messages) with keyed resend (POST …/messages/{messageId}/resend).
import { randomBytes } from 'node:crypto';
import { recordAudit } from './audit.ts';
import { attempt, EVENT_TYPES } from './deliveries.ts';
import { idempotent } from './idempotency.ts';
import type { Ctx } from './pipeline.ts';
import type { Endpoint, Message } from './state.ts';
import { denyUnknown } from './validate.ts';
import { ApiError, type Call, invalid, jsonBody, notFound, ok, rawBody, timestamp, typeId } from './wire.ts';

const view = (ep: Endpoint) => ({ id: ep.id, url: ep.url, events: ep.events, createdAt: ep.createdAt });

function endpointOf(ctx: Ctx): Endpoint {
  const ep = ctx.state.endpoints.find((e) => e.id === ctx.params.webhookId && e.tenant === ctx.tenant);
  if (!ep) throw notFound(`No webhook ${ctx.params.webhookId ?? ''}.`);
  return ep;
}

export async function registerWebhook(call: Call, ctx: Ctx): Promise<void> {
  const body = await jsonBody(call.req);
  denyUnknown(body, ['url', 'events', 'description']);
  const url = body.url;
  if (typeof url !== 'string' || url.length > 2048) throw invalid('`url` must be an absolute http(s) URL.');
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    throw invalid('`url` must be an absolute http(s) URL.');
  }
  if (parsed.protocol !== 'http:' && parsed.protocol !== 'https:')
    throw invalid('`url` must be an absolute http(s) URL.');
  const events = body.events;
  if (!Array.isArray(events) || events.length < 1 || events.length > 32)
    throw invalid('`events` must hold 1 to 32 event names.');
  for (const e of events) {
    if (typeof e !== 'string' || !(EVENT_TYPES as readonly string[]).includes(e)) {
      throw invalid(`events: one of ${EVENT_TYPES.join(', ')}`);
    }
  }
  if (body.description !== undefined && typeof body.description !== 'string')
    throw invalid('`description` must be a string.');
  await idempotent(call, ctx, body, () => {
    const ep: Endpoint = {
      id: typeId('ep'),
      tenant: ctx.tenant,
      url,
      events: [...new Set(events as string[])],
      secret: `whsec_${randomBytes(24).toString('base64url')}`,
      createdAt: timestamp(),
    };
    ctx.state.endpoints.push(ep);
    recordAudit(ctx.state, ctx, call, 'webhook.created', ep.id);
    return { ...view(ep), secret: ep.secret, secretNotice: 'Store this secret now: it is never shown again.' };
  });
}

export function listWebhooks(call: Call, ctx: Ctx): void {
  const mine = ctx.state.endpoints.filter((e) => e.tenant === ctx.tenant).map(view);
  ok(call, { count: mine.length, webhooks: mine });
}

export async function deleteWebhook(call: Call, ctx: Ctx): Promise<void> {
  await rawBody(call.req);
  await idempotent(call, ctx, {}, () => {
    const ep = endpointOf(ctx);
    ctx.state.endpoints = ctx.state.endpoints.filter((e) => e !== ep);
    recordAudit(ctx.state, ctx, call, 'webhook.deleted', ep.id);
    return { id: ep.id, deleted: true };
  });
}

/** The delivery log arrived with 2026-07-01: a 2026-06-12 caller does not see it. */
function since(call: Call): void {
  if (call.version === '2026-06-12')
    throw new ApiError(
      404,
      'not_found',
      'The entry does not exist.',
      'The delivery log is part of version 2026-07-01.',
    );
}

export function listMessages(call: Call, ctx: Ctx): void {
  since(call);
  const ep = endpointOf(ctx);
  const q = call.url.searchParams;
  const limit = Number(q.get('limit') ?? '50');
  if (!Number.isInteger(limit) || limit < 1 || limit > 250) throw invalid('`limit` must be an integer from 1 to 250.');
  const all = ctx.state.messages.filter((m) => m.endpointId === ep.id).reverse();
  let from = 0;
  const raw = q.get('iterator');
  if (raw !== null) {
    const after = Buffer.from(raw, 'base64url').toString('utf8');
    from = all.findIndex((m) => m.id === after) + 1;
    if (from === 0) throw invalid('`iterator` is not one this service issued.');
  }
  const page = all.slice(from, from + limit);
  const last = page[page.length - 1];
  const done = from + limit >= all.length || last === undefined;
  ok(call, {
    webhookId: ep.id,
    count: page.length,
    messages: page.map(messageView),
    iterator: done ? null : Buffer.from(last.id).toString('base64url'),
    done,
  });
}

function messageView(m: Message): Record<string, unknown> {
  return {
    id: m.id,
    eventType: m.eventType,
    eventId: m.payload.eventId,
    createdAt: m.createdAt,
    status: m.status,
    nextAttemptAt: m.nextAttemptAt,
    attempts: m.attempts,
    payload: m.payload,
  };
}

export async function resendMessage(call: Call, ctx: Ctx): Promise<void> {
  since(call);
  await rawBody(call.req);
  const ep = endpointOf(ctx);
  const message = ctx.state.messages.find((m) => m.id === ctx.params.messageId && m.endpointId === ep.id);
  if (!message) throw notFound(`No message ${ctx.params.messageId ?? ''} for webhook ${ep.id}.`);
  await idempotent(call, ctx, {}, () => {
    recordAudit(ctx.state, ctx, call, 'webhook.message.resent', message.id);
    void attempt(ctx.state, ep, message, 'manual');
    return { messageId: message.id, webhookId: ep.id, status: 'queued' };
  });
}
