// Webhook resources: registration (key issued once), listing, removal, the delivery log (Panache paging:
// ?page=0&size=20, newest first) and the selective resend. Events reach the outbox via publishEvent.
import { randomBytes } from 'node:crypto';
import type { State, WebhookEntity } from './state.ts';
import { WEBHOOK_EVENTS } from './state.ts';
import { ApiError, type Ctx, notFound, nowIso, readJson, sendData, uuid } from './util.ts';
import { validate } from './validate.ts';

export const SIGNATURE_HEADER = 'Hawthorn-Signature';

/** issue: the key itself; marker: a note where the key was; omit: nothing; mask: its last four characters. */
export type KeyView = 'issue' | 'marker' | 'omit' | 'mask' | 'repeat';

function view(w: WebhookEntity, mode: KeyView): Record<string, unknown> {
  const signing: Record<string, unknown> = {
    algorithm: 'HMAC-SHA256',
    keyId: w.keyId,
    header: SIGNATURE_HEADER,
    format: 't=<unix-seconds>,v1=<hex>',
  };
  if (mode === 'issue' || mode === 'repeat') signing.key = w.key;
  else if (mode === 'marker') signing.keyShown = 'only in the answer that registered the receiver';
  else if (mode === 'mask') signing.key = `hwsk_…${w.key.slice(-4)}`;
  return { id: w.id, url: w.url, events: w.events, status: w.status, createdAt: w.createdAt, signing };
}

export async function registerWebhook(ctx: Ctx, s: State): Promise<void> {
  const key = s.idempotency.requireKey(ctx);
  const body = await readJson(ctx.req);
  validate(body, {
    rules: {
      url: { kind: 'url', required: true },
      events: { kind: 'list', min: 1, max: 20, item: { min: 2, max: 120 }, required: true },
    },
    closed: false,
  });
  const events = body.events as string[];
  events.forEach((e, i) => {
    if (!WEBHOOK_EVENTS.includes(e))
      throw new ApiError(
        400,
        'invalid_request',
        'Request incomplete or unsuitable',
        `events[${i}]: must be one of ${WEBHOOK_EVENTS.join(', ')}`,
      );
  });
  const { data, replayed } = s.idempotency.run(
    ctx,
    key,
    'POST /webhooks',
    body,
    () => {
      const w: WebhookEntity = {
        id: uuid(),
        tenant: ctx.tenant ?? '',
        url: String(body.url),
        events: [...new Set(events)],
        key: `hwsk_${randomBytes(24).toString('hex')}`,
        keyId: `k1-${randomBytes(4).toString('hex')}`,
        status: 'ENABLED',
        createdAt: nowIso(),
      };
      s.webhooks.push(w);
      s.audit.append(ctx, 'webhook.registered', 'webhook', w.id, { url: w.url, events: w.events });
      return view(w, 'issue');
    },
    // "issued exactly once": a replay answers the same registration without the key.
    (stored) => {
      const w = s.webhooks.find((x) => x.id === (stored as { id: string }).id);
      return w ? view(w, s.replayKey) : stored;
    },
  );
  if (s.keyInHeader && !replayed) {
    // keyInHeader: the key travels in a response header of the registering answer, not in the body.
    const signing = { ...((data as { signing: Record<string, unknown> }).signing ?? {}) };
    const key = String(signing.key);
    delete signing.key;
    return sendData(ctx, { ...(data as object), signing }, { replayed }, { 'hawthorn-signing-key': key });
  }
  sendData(ctx, data, { replayed });
}

const own = (ctx: Ctx, s: State, id: string) => {
  const w = s.webhooks.find((x) => x.id === id && x.tenant === ctx.tenant && x.status === 'ENABLED');
  if (!w) throw notFound('No webhook receiver with this id for this tenant');
  return w;
};

export function listWebhooks(ctx: Ctx, s: State): void {
  const list = s.webhooks
    .filter((w) => w.tenant === ctx.tenant && w.status === 'ENABLED')
    .map((w) => view(w, 'marker'));
  sendData(ctx, { count: list.length, webhooks: list });
}

export function deleteWebhook(ctx: Ctx, s: State, id: string): void {
  const key = s.idempotency.requireKey(ctx);
  const { data, replayed } = s.idempotency.run(ctx, key, `DELETE /webhooks/${id}`, {}, () => {
    const w = own(ctx, s, id);
    w.status = 'DELETED';
    s.audit.append(ctx, 'webhook.deleted', 'webhook', w.id, {});
    return { id: w.id, status: w.status, deletedAt: nowIso() };
  });
  sendData(ctx, data, { replayed });
}

const deliveryView = (d: State['outbox']['deliveries'][number]) => ({
  id: d.id,
  webhookId: d.webhookId,
  eventId: d.eventId,
  eventType: d.eventType,
  status: d.status,
  createdAt: d.createdAt,
  resendOf: d.resendOf,
  attemptCount: d.attempts.length,
  attempts: d.attempts,
});

const deliveryLogAbsent = (ctx: Ctx) => {
  // The delivery log was added in 2026-07-01; a caller pinned to 2026-06-12 does not see it.
  if (ctx.version === '2026-06-12') throw notFound('The delivery log exists from version 2026-07-01 on');
};

export function deliveryLog(ctx: Ctx, s: State, id: string): void {
  deliveryLogAbsent(ctx);
  const w = own(ctx, s, id);
  const q = ctx.url.searchParams;
  const page = q.get('page') ?? '0';
  const size = q.get('size') ?? '20';
  if (!/^\d{1,6}$/.test(page))
    throw new ApiError(
      400,
      'invalid_request',
      'Request incomplete or unsuitable',
      'page: must be an integer, minimum 0',
    );
  if (!/^\d{1,3}$/.test(size) || Number(size) < 1 || Number(size) > 100)
    throw new ApiError(
      400,
      'invalid_request',
      'Request incomplete or unsuitable',
      'size: must be an integer between 1 and 100',
    );
  const all = s.outbox.deliveries.filter((d) => d.webhookId === w.id).reverse();
  const p = Number(page);
  const n = Number(size);
  const slice = all.slice(p * n, p * n + n);
  sendData(ctx, {
    webhookId: w.id,
    page: p,
    size: n,
    totalCount: all.length,
    pageCount: Math.ceil(all.length / n),
    deliveries: slice.map(deliveryView),
  });
}

export async function resendDelivery(ctx: Ctx, s: State, webhookId: string, deliveryId: string): Promise<void> {
  deliveryLogAbsent(ctx);
  const key = s.idempotency.requireKey(ctx);
  const w = own(ctx, s, webhookId);
  const original = s.outbox.deliveries.find((d) => String(d.id) === deliveryId && d.webhookId === w.id);
  if (!original) throw notFound('No delivery with this id for this webhook receiver');
  const { data, replayed } = s.idempotency.run(
    ctx,
    key,
    `POST /webhooks/${webhookId}/delivery-attempts/${deliveryId}/resend`,
    {},
    () => {
      const d = s.outbox.enqueue({
        webhookId: w.id,
        tenant: w.tenant,
        eventId: original.eventId,
        eventType: original.eventType,
        resendOf: original.id,
        body: original.body,
        url: w.url,
        key: w.key,
      });
      s.audit.append(ctx, 'delivery.resent', 'delivery', String(d.id), { resendOf: original.id });
      return { delivery: deliveryView(d), resendOf: original.id };
    },
  );
  sendData(ctx, data, { replayed });
}

/** Hands an event to the outbox, one delivery per receiver of the tenant subscribed to it. */
export function publishEvent(
  s: State,
  tenant: string,
  type: string,
  subject: string,
  payload: Record<string, unknown>,
): void {
  for (const w of s.webhooks) {
    if (w.tenant !== tenant || w.status !== 'ENABLED' || !w.events.includes(type)) continue;
    const eventId = uuid();
    const body = JSON.stringify({
      specversion: '1.0',
      id: eventId,
      type,
      source: '/api/public/v1/connections',
      subject,
      time: nowIso(),
      datacontenttype: 'application/json',
      data: payload,
    });
    s.outbox.enqueue({
      webhookId: w.id,
      tenant,
      eventId,
      eventType: type,
      resendOf: null,
      body,
      url: w.url,
      key: w.key,
    });
  }
}
