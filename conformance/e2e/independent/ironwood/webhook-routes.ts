// Webhook receivers, the delivery log, redelivery, the audit log and /info of ironwood. OData-style paging
// of the audit log: $top (alias limit) and an opaque $skiptoken inside a full @odata.nextLink URL.
import { page, record } from './audit.ts';
import { type Answer, ApiError, ok, readJson } from './http-util.ts';
import { keyed } from './idempotency.ts';
import type { Ctx } from './routes.ts';
import { idempotencyKey, nonNegativeInt, text, textList } from './validate.ts';
import { checkEvents, checkUrl, deliveryView, newWebhook, SIGNATURE_HEADER } from './webhooks.ts';

function audit(ctx: Ctx, action: string, resourceType: string, resourceId: string): void {
  record(ctx.state, ctx.tenant, {
    action,
    resourceType,
    resourceId,
    clientId: ctx.clientId,
    requestId: ctx.call.requestId,
  });
}

export async function createWebhook(ctx: Ctx): Promise<Answer> {
  const key = idempotencyKey(ctx.call.headers, true) as string;
  ctx.call.idempotencyKey = key;
  const body = await readJson(ctx.call.req);
  const url = text(body, 'url', 8, 2048);
  checkUrl(url);
  const events = textList(body, 'events', 1, 24);
  checkEvents(events, ctx.dispatcher.names);
  return keyed(ctx.state, ctx.call, ctx.tenant, key, body, () => {
    const w = newWebhook(ctx.tenant, url, [...new Set(events)]);
    ctx.state.webhooks.set(w.id, w);
    audit(ctx, 'webhook.create', 'webhook', w.id);
    // The signing key is in this answer only (and its replays); no read shows it again.
    return {
      id: w.id,
      url: w.url,
      events: w.events,
      createdAt: w.createdAt,
      signingKey: w.signingKey,
      signatureHeader: SIGNATURE_HEADER,
    };
  });
}

function ownWebhook(ctx: Ctx, id: string) {
  const w = ctx.state.webhooks.get(id);
  if (!w || w.deleted || w.tenant !== ctx.tenant) throw new ApiError('not_found', 'The webhook does not exist.');
  return w;
}

export function listWebhooks(ctx: Ctx): Answer {
  const webhooks = [...ctx.state.webhooks.values()]
    .filter((w) => w.tenant === ctx.tenant && !w.deleted)
    .map((w) => ({ id: w.id, url: w.url, events: w.events, createdAt: w.createdAt }));
  return ok(ctx.call, { count: webhooks.length, webhooks });
}

export async function deleteWebhook(ctx: Ctx, id: string): Promise<Answer> {
  const key = idempotencyKey(ctx.call.headers, true) as string;
  ctx.call.idempotencyKey = key;
  return keyed(ctx.state, ctx.call, ctx.tenant, key, { id }, () => {
    const w = ownWebhook(ctx, id);
    w.deleted = true;
    audit(ctx, 'webhook.delete', 'webhook', w.id);
    return { id: w.id, deleted: true };
  });
}

export function deliveryLog(ctx: Ctx, baseUrl: string): Answer {
  const q = ctx.call.url.searchParams;
  const webhookId = q.get('webhookId');
  if (webhookId === null || webhookId === '') {
    throw new ApiError('invalid_request', "The query parameter 'webhookId' is required.", 'webhookId: is required');
  }
  const w = ownWebhook(ctx, webhookId);
  const all = [...ctx.state.deliveries.values()].filter((d) => d.webhookId === w.id);
  const size = ctx.options.deliveryPage;
  if (size === undefined) {
    // Newest first, the whole log of the receiver in one answer.
    const deliveries = all.reverse().map(deliveryView);
    return ok(ctx.call, { webhookId: w.id, count: deliveries.length, deliveries });
  }
  // Server-driven paging, oldest first: `size` a page, the rest behind @odata.nextLink.
  const skip = nonNegativeInt(q.get('$skiptoken'), '$skiptoken') ?? 0;
  const deliveries = all.slice(skip, skip + size).map(deliveryView);
  const data: Record<string, unknown> = { webhookId: w.id, count: deliveries.length, deliveries };
  if (skip + size < all.length) {
    const next = new URL(`${baseUrl}/api/public/v1/webhook-deliveries`);
    next.searchParams.set('webhookId', w.id);
    next.searchParams.set('$skiptoken', String(skip + size));
    data['@odata.nextLink'] = next.toString();
  }
  return ok(ctx.call, data);
}

export async function redeliver(ctx: Ctx, deliveryId: string): Promise<Answer> {
  const key = idempotencyKey(ctx.call.headers, true) as string;
  ctx.call.idempotencyKey = key;
  return keyed(ctx.state, ctx.call, ctx.tenant, key, { deliveryId }, () => {
    const original = ctx.state.deliveries.get(deliveryId);
    if (!original || original.tenant !== ctx.tenant) throw new ApiError('not_found', 'The delivery does not exist.');
    const d = ctx.dispatcher.redeliver(original);
    audit(ctx, 'webhook-delivery.redeliver', 'webhook-delivery', d.id);
    return deliveryView(d);
  });
}

interface SkipToken {
  skip: number;
  size: number;
}

function readSkipToken(value: string | null): SkipToken | undefined {
  if (value === null) return undefined;
  try {
    const t = JSON.parse(Buffer.from(value, 'base64url').toString('utf8')) as SkipToken;
    if (Number.isInteger(t.skip) && Number.isInteger(t.size) && t.skip >= 0 && t.size >= 0) return t;
  } catch {
    // fall through to the refusal
  }
  throw new ApiError('invalid_request', "The query parameter '$skiptoken' is invalid.");
}

export function auditLog(ctx: Ctx, baseUrl: string): Answer {
  const q = ctx.call.url.searchParams;
  const top = nonNegativeInt(q.get('$top') ?? q.get('limit'), '$top') ?? 50;
  if (top < 1 || top > 1000) throw new ApiError('invalid_request', "'$top' must be 1 to 1000.", '$top: 1 to 1000');
  const token = readSkipToken(q.get('$skiptoken'));
  const pageSize = Math.min(top, ctx.options.auditMaxPage ?? top);
  const p = page(ctx.state, ctx.tenant, token?.skip ?? 0, pageSize, token?.size);
  const data: Record<string, unknown> = { count: p.entries.length, treeHead: p.treeHead, entries: p.entries };
  if (p.more) {
    const next = new URL(`${baseUrl}/api/public/v1/audit-log`);
    next.searchParams.set('$top', String(top));
    const skip = (token?.skip ?? 0) + pageSize;
    next.searchParams.set(
      '$skiptoken',
      Buffer.from(JSON.stringify({ skip, size: p.treeHead.size })).toString('base64url'),
    );
    data['@odata.nextLink'] = next.toString();
  }
  return ok(ctx.call, data);
}

export function info(ctx: Ctx): Answer {
  return ok(ctx.call, { tenant: ctx.tenant, clientId: ctx.clientId, environment: 'sandbox', region: 'loopback' });
}
