// Webhook receivers (registration, removal), the delivery log ("messages" of a receiver, keyset-paged with
// ?after=<message id>) and the requeue of a logged delivery. The log is new in 2026-07-01: a caller asking
// for 2026-06-12 gets 404 not_found for it.
import { record } from './audit.ts';
import { ApiError, type Call, ok } from './call.ts';
import { decode, jsonBody, type Spec } from './decode.ts';
import { once, requireKey } from './idempotency.ts';
import { newId, servedId, stamp, type Webhook } from './state.ts';
import { randomToken, readBody } from './util.ts';
import { deliveryView, enqueue, requeueSame, WEBHOOK_EVENTS } from './webhooks.ts';

export const WEBHOOK_SPEC: Spec = {
  url: { type: 'string', min: 8, max: 2048, pattern: /^https?:\/\/[^\s]+$/ },
  events: { type: 'array', min: 1, max: 16, items: { type: 'string', min: 2, max: 80, enum: WEBHOOK_EVENTS } },
};

function ownHook(call: Call, id: string | undefined): Webhook {
  const hook = id ? call.state.webhooks.get(id) : undefined;
  // Another tenant's receiver is as unknown as a missing one.
  if (!hook || hook.tenant !== call.tenant || hook.status !== 'enabled')
    throw new ApiError('not_found', 'no webhook receiver with this id');
  return hook;
}

const sinceCurrent = (call: Call): void => {
  if (call.version === '2026-06-12') {
    throw new ApiError(
      'not_found',
      'the delivery log is not part of 2026-06-12',
      undefined,
      'send Service-Version: 2026-07-01',
    );
  }
};

export async function registerWebhook(call: Call): Promise<void> {
  requireKey(call);
  const raw = await jsonBody(call);
  const body = decode(raw, WEBHOOK_SPEC);
  try {
    new URL(String(body.url));
  } catch {
    throw new ApiError(
      'invalid_request',
      'the request body does not match the schema',
      'url is not an absolute http(s) URL - at `$.url`',
    );
  }
  once(call, raw, () => {
    const hook: Webhook = {
      id: newId(call.state, 'webhook'),
      tenant: call.tenant ?? '',
      url: String(body.url),
      events: [...new Set(body.events as string[])],
      secret: `whsec_${randomToken(32)}`,
      status: 'enabled',
      createdAt: stamp(call.state),
    };
    call.state.webhooks.set(hook.id, hook);
    record(
      call.state,
      hook.tenant,
      'webhook.create',
      call.clientId ?? '',
      { type: 'webhook', id: hook.id },
      call.idempotencyKey,
    );
    return {
      id: servedId(call.state, hook.id),
      url: hook.url,
      events: hook.events,
      status: hook.status,
      createdAt: hook.createdAt,
      secret: hook.secret,
    };
  });
}

/** A body that may be absent: none or `{}` (strict: no fields are defined). */
async function emptyBody(call: Call): Promise<Record<string, unknown>> {
  const raw = await readBody(call.req, 1024);
  if (raw !== null && raw.toString('utf8').trim() === '') return {};
  let parsed: unknown;
  try {
    parsed = raw === null ? undefined : JSON.parse(raw.toString('utf8'));
  } catch {
    parsed = undefined;
  }
  return decode(parsed, {});
}

export async function deleteWebhook(call: Call, params: Record<string, string>): Promise<void> {
  requireKey(call);
  const body = await emptyBody(call);
  once(call, { ...body, webhookId: params.webhookId }, () => {
    const hook = ownHook(call, params.webhookId);
    hook.status = 'deleted';
    record(
      call.state,
      hook.tenant,
      'webhook.delete',
      call.clientId ?? '',
      { type: 'webhook', id: hook.id },
      call.idempotencyKey,
    );
    return { id: servedId(call.state, hook.id), status: 'deleted' };
  });
}

export function listMessages(call: Call, params: Record<string, string>): void {
  sinceCurrent(call);
  const hook = ownHook(call, params.webhookId);
  const limitRaw = call.url.searchParams.get('limit') ?? '50';
  const after = call.url.searchParams.get('after');
  if (!/^\d{1,3}$/.test(limitRaw) || Number(limitRaw) < 1 || Number(limitRaw) > 200) {
    throw new ApiError('invalid_request', 'limit must be an integer from 1 to 200');
  }
  if (after !== null && !/^\d{1,20}$/.test(after)) throw new ApiError('invalid_request', 'after must be a message id');
  const limit = Number(limitRaw);
  const all = call.state.deliveries.filter(
    (d) => d.webhookId === hook.id && (after === null || BigInt(d.id) > BigInt(after)),
  );
  const page = all.slice(0, limit);
  const last = page.at(-1);
  const next =
    all.length > limit && last ? `/api/public/v1/webhooks/${hook.id}/messages?limit=${limit}&after=${last.id}` : null;
  ok(
    call,
    {
      webhookId: servedId(call.state, hook.id),
      count: page.length,
      messages: page.map((d) => deliveryView(call.state, d)),
      next,
    },
    {},
    next ? { link: `<${next}>; rel="next"` } : {},
  );
}

export async function requeueMessage(call: Call, params: Record<string, string>): Promise<void> {
  requireKey(call);
  sinceCurrent(call);
  const body = await emptyBody(call);
  once(call, { ...body, messageId: params.messageId }, () => {
    const hook = ownHook(call, params.webhookId);
    const original = call.state.deliveries.find((d) => d.id === params.messageId && d.webhookId === hook.id);
    if (!original) throw new ApiError('not_found', 'no message with this id in the delivery log');
    const d = call.state.options.requeueSameMessage
      ? requeueSame(call.state, original)
      : enqueue(call.state, {
          webhookId: hook.id,
          tenant: hook.tenant,
          eventId: original.eventId,
          event: original.event,
          body: original.body,
          trigger: 'requeue',
          requeueOf: original.id,
        });
    record(
      call.state,
      hook.tenant,
      'delivery.requeue',
      call.clientId ?? '',
      { type: 'delivery', id: d.id },
      call.idempotencyKey,
    );
    return { message: deliveryView(call.state, d) };
  });
}
