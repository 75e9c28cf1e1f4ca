// Controllers of webhook endpoints, their delivery log (the jobs table), re-triggering, the audit log and /info.
import { type AuditLog, auditPage, nextLink, pageParams, record } from './audit.ts';
import { ApiError, type Conn, isoNow, ok } from './conn.ts';
import { once, readKey } from './idempotency.ts';
import type { Call, Ctx } from './operations.ts';
import { nextId } from './store.ts';
import { refuseUnknown, text } from './validate.ts';
import { type Endpoint, EVENT_NAMES, endpointView, jobView, newSigningKey, retryJob } from './webhooks.ts';

function endpointOf(ctx: Ctx, tenant: string, id: string): Endpoint {
  const ep = ctx.queue.endpoints.find((e) => e.tenant === tenant && e.id === id && !e.deleted);
  if (!ep)
    throw new ApiError('not_found', `webhook endpoint ${id} does not exist`, {
      hint: 'compare identifier and tenant header',
    });
  return ep;
}

function audit(
  log: AuditLog,
  ctx: Ctx,
  call: Call,
  action: string,
  type: string,
  id: string,
  key: string | undefined,
  changes: Record<string, unknown>,
): void {
  record(log, ctx.store, call.tenant, {
    at: isoNow(),
    actor: call.clientId,
    action,
    resourceType: type,
    resourceId: id,
    idempotencyKey: key,
    changes,
  });
}

export function createWebhook(call: Call, ctx: Ctx, redactKeyOnReplay: boolean): void {
  const { conn, tenant, clientId } = call;
  const key = readKey(conn, true);
  once(
    ctx.idem,
    `${clientId}/${tenant}`,
    conn,
    key,
    () => {
      const b = call.body();
      refuseUnknown(b, ['url', 'events', 'description']);
      const url = text(b, 'url', 8, 2048) ?? '';
      let parsed: URL | undefined;
      try {
        parsed = new URL(url);
      } catch {
        parsed = undefined;
      }
      if (!parsed || !['http:', 'https:'].includes(parsed.protocol)) {
        throw new ApiError('invalid_request', 'url must be an absolute http or https URL', { pointer: '/url' });
      }
      const events = b.events;
      if (!Array.isArray(events) || events.length < 1 || events.length > EVENT_NAMES.length) {
        throw new ApiError('invalid_request', `events must list 1 to ${EVENT_NAMES.length} event names`, {
          pointer: '/events',
        });
      }
      events.forEach((e, i) => {
        if (typeof e !== 'string' || !EVENT_NAMES.includes(e)) {
          throw new ApiError('invalid_request', `events[${i}] must be one of ${EVENT_NAMES.join(', ')}`, {
            pointer: `/events/${i}`,
          });
        }
      });
      if (b.description !== undefined) text(b, 'description', 0, 200);
      const ep: Endpoint = {
        id: nextId(ctx.store, tenant, 'webhooks'),
        tenant,
        url,
        events: [...new Set(events as string[])],
        signingKey: newSigningKey(),
        createdAt: isoNow(),
        deleted: false,
      };
      ctx.queue.endpoints.push(ep);
      audit(ctx.audit, ctx, call, 'webhook.create', 'webhook_endpoint', ep.id, key, { url, events: ep.events });
      return endpointView(ep, true);
    },
    redactKeyOnReplay ? (data) => ({ ...(data as Record<string, unknown>), signingKey: undefined }) : undefined,
  );
}

export function deleteWebhook(call: Call, ctx: Ctx, id: string): void {
  const key = readKey(call.conn, true);
  once(ctx.idem, `${call.clientId}/${call.tenant}`, call.conn, key, () => {
    const ep = endpointOf(ctx, call.tenant, id);
    ep.deleted = true;
    audit(ctx.audit, ctx, call, 'webhook.delete', 'webhook_endpoint', ep.id, key, {});
    return { id: ep.id, type: 'webhook_endpoint', deleted: true };
  });
}

/** GET /webhooks/{id}/deliveries: newest job first, keyset paged like the audit log. */
export function listDeliveries(call: Call, ctx: Ctx, id: string): void {
  const ep = endpointOf(ctx, call.tenant, id);
  const { size, after } = pageParams(call.conn, ctx.pageSize);
  const all = ctx.queue.jobs.filter((j) => j.tenant === call.tenant && j.webhookId === ep.id).reverse();
  const from = after === undefined ? all : all.filter((j) => Number(j.id) < after);
  const page = from.slice(0, size);
  const last = page[page.length - 1];
  const next = from.length > size && last ? nextLink(call.conn.path, size, last.id) : null;
  ok(
    call.conn,
    { webhookId: ep.id, count: page.length, deliveries: page.map(jobView), links: { self: call.conn.path, next } },
    next ? { link: `<${next}>; rel="next"` } : {},
  );
}

/** POST /webhooks/{id}/deliveries/{jobId}/retry: the job runs again (a new signed attempt of the same payload). */
export function retryDelivery(call: Call, ctx: Ctx, id: string, jobId: string): void {
  const key = readKey(call.conn, true);
  once(ctx.idem, `${call.clientId}/${call.tenant}`, call.conn, key, () => {
    const ep = endpointOf(ctx, call.tenant, id);
    const job = ctx.queue.jobs.find((j) => j.tenant === call.tenant && j.webhookId === ep.id && j.id === jobId);
    if (!job)
      throw new ApiError('not_found', `delivery ${jobId} does not exist`, {
        hint: 'compare identifier and tenant header',
      });
    if (job.state === 'executing' || job.state === 'available') {
      return { ...jobView(job), retried: false };
    }
    retryJob(job);
    audit(ctx.audit, ctx, call, 'webhook_delivery.retry', 'webhook_delivery', job.id, key, { webhookId: ep.id });
    return { ...jobView(job), retried: true };
  });
}

export function auditLog(call: Call, ctx: Ctx): void {
  for (const k of call.conn.query.keys()) {
    if (!['limit', 'page[size]', 'page[after]'].includes(k))
      throw new ApiError('invalid_request', `unknown query parameter ${k}`);
  }
  const { data, link } = auditPage(ctx.audit, call.tenant, call.conn, ctx.pageSize);
  ok(call.conn, data, link ? { link: `<${link}>; rel="next"` } : {});
}

export function info(call: Call, ctx: Ctx, conn: Conn): void {
  const client = ctx.store.clients.get(call.clientId);
  ok(conn, {
    tenant: call.tenant,
    clientId: call.clientId,
    environment: 'sandbox',
    purpose: client?.purpose,
    owner: client?.owner,
    accessExpiresAt: client?.expiresAt,
  });
}
