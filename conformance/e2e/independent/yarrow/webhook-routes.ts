// Webhook receivers, their delivery log (API Platform's webhook_deliveries collection, filtered by
// ?webhook=) and the selective retry. The signing key is shown once: a replayed registration leaves it out.
import { randomBytes, randomUUID } from 'node:crypto';
import { API, EVENT_NAMES } from './catalog.ts';
import { ApiError, type Ctx, ok, readJson } from './http-util.ts';
import { deliveryView, type Webhook } from './messenger.ts';
import type { State } from './state.ts';
import { Violations } from './validate.ts';

const hookView = (h: Webhook) => ({
  '@id': `${API}/webhooks/${h.id}`,
  id: h.id,
  url: h.url,
  events: h.events,
  active: h.active,
  createdAt: h.createdAt,
});

function ownHook(s: State, ctx: Ctx, id: string): Webhook {
  const h = s.webhooks.get(id);
  if (!h || h.tenant !== ctx.tenant || !h.active)
    throw new ApiError('not_found', `No webhook "${id}" for this tenant.`, 'Compare identifier and tenant header.');
  return h;
}

export async function createWebhook(s: State, ctx: Ctx) {
  const key = s.idem.require(ctx);
  const body = await readJson(ctx);
  const v = new Violations();
  const url = v.string(body, 'url', 8, 2048);
  if (url !== undefined && !/^https?:\/\/[^\s/]+/i.test(url)) v.list.push('url: This value is not a valid URL.');
  const events = body.events;
  if (!Array.isArray(events) || events.length === 0)
    v.list.push('events: This collection should contain 1 element or more.');
  else {
    events.forEach((e, i) => {
      if (typeof e !== 'string' || !EVENT_NAMES.includes(e)) {
        v.list.push(
          `events[${i}]: The value you selected is not a valid choice. Choose one of: ${EVENT_NAMES.join(', ')}.`,
        );
      }
    });
  }
  v.throwIfAny();
  const { stored, slot, fingerprint } = s.idem.lookup(ctx, 'POST /webhooks', body);
  if (stored) return ok(ctx, stored.data, { idempotencyKey: key, replayed: true });
  const hook: Webhook = {
    id: randomUUID(),
    tenant: ctx.tenant ?? '',
    url: url ?? '',
    events: [...new Set(events as string[])],
    secret: `whsec_${randomBytes(24).toString('base64url')}`,
    createdAt: new Date().toISOString(),
    active: true,
  };
  s.webhooks.set(hook.id, hook);
  s.audit.record(hook.tenant, ctx.clientId ?? '', 'webhook.create', `${API}/webhooks/${hook.id}`, key);
  // The replay answers the same registration without the key: it is issued exactly once.
  s.idem.save(
    slot,
    fingerprint,
    s.opts.replaySecret
      ? { ...hookView(hook), secret: hook.secret, secretIssued: true }
      : { ...hookView(hook), secretIssued: true },
  );
  ok(ctx, { ...hookView(hook), secret: hook.secret, secretIssued: true }, { idempotencyKey: key, replayed: false });
}

export function deleteWebhook(s: State, ctx: Ctx, id: string) {
  const key = s.idem.require(ctx);
  const { stored, slot, fingerprint } = s.idem.lookup(ctx, `DELETE /webhooks/${id}`, {});
  if (stored) return ok(ctx, stored.data, { idempotencyKey: key, replayed: true });
  const h = ownHook(s, ctx, id);
  h.active = false;
  s.audit.record(h.tenant, ctx.clientId ?? '', 'webhook.delete', `${API}/webhooks/${h.id}`, key);
  const data = { ...hookView(h), deleted: true };
  s.idem.save(slot, fingerprint, data);
  ok(ctx, data, { idempotencyKey: key, replayed: false });
}

export function listDeliveries(s: State, ctx: Ctx) {
  if (ctx.version === '2026-06-12') {
    throw new ApiError('not_found', 'The delivery log was added in 2026-07-01.', 'Send Service-Version: 2026-07-01.');
  }
  const filter = ctx.query.get('webhook');
  if (filter !== null) ownHook(s, ctx, filter);
  const pageRaw = ctx.query.get('page') ?? '1';
  if (!/^\d+$/.test(pageRaw) || Number(pageRaw) < 1)
    throw new ApiError('invalid_request', 'page: This value should be 1 or more.');
  const page = Number(pageRaw);
  const size = s.opts.deliveryPageSize;
  const all = s.messenger.deliveries.filter((d) =>
    filter === null ? s.webhooks.get(d.webhookId)?.tenant === ctx.tenant : d.webhookId === filter,
  );
  const deliveries = all.slice((page - 1) * size, page * size).map(deliveryView);
  // API Platform paging: ascending, itemsPerPage per page, the next page named in a Link header.
  const next =
    page * size < all.length
      ? `${ctx.origin}${API}/webhook_deliveries?${filter ? `webhook=${filter}&` : ''}page=${page + 1}`
      : undefined;
  const docs = `<${ctx.origin}${API}/openapi.json>; rel="http://www.w3.org/ns/hydra/core#apiDocumentation"`;
  ok(
    ctx,
    { totalItems: all.length, page, itemsPerPage: size, count: deliveries.length, deliveries },
    {},
    { link: next ? `<${next}>; rel="next", ${docs}` : docs },
  );
}

export function retryDelivery(s: State, ctx: Ctx, id: string) {
  const key = s.idem.require(ctx);
  const { stored, slot, fingerprint } = s.idem.lookup(ctx, `POST /webhook_deliveries/${id}/retry`, {});
  if (stored) return ok(ctx, stored.data, { idempotencyKey: key, replayed: true });
  const d = s.messenger.deliveries.find((x) => x.id === id);
  const hook = d ? s.webhooks.get(d.webhookId) : undefined;
  if (!d || !hook || hook.tenant !== ctx.tenant)
    throw new ApiError('not_found', `No delivery "${id}" for this tenant.`);
  const again = s.messenger.dispatch(hook, d.event, d.eventId, d.body, d.id);
  s.audit.record(hook.tenant, ctx.clientId ?? '', 'webhook_delivery.retry', again['@id'], key);
  const data = deliveryView(again);
  s.idem.save(slot, fingerprint, data);
  ok(ctx, data, { idempotencyKey: key, replayed: false });
}

export function auditLog(s: State, ctx: Ctx) {
  const limitRaw = ctx.query.get('limit') ?? '30';
  const pageRaw = ctx.query.get('page') ?? '1';
  if (!/^\d+$/.test(limitRaw) || Number(limitRaw) < 1 || Number(limitRaw) > 100) {
    throw new ApiError('invalid_request', 'limit: This value should be between 1 and 100.');
  }
  if (!/^\d+$/.test(pageRaw) || Number(pageRaw) < 1)
    throw new ApiError('invalid_request', 'page: This value should be 1 or more.');
  const limit = Number(limitRaw);
  const page = Number(pageRaw);
  const all = s.audit.entries(ctx.tenant ?? '');
  const ordered = s.opts.auditNewestFirst ? [...all].reverse() : all;
  const slice = ordered.slice((page - 1) * limit, page * limit);
  // The other spelling of the chain links (YARROW_AUDIT_HASH_NAMES): hash/prevHash for digest/previousDigest.
  const entries = s.opts.auditHashNames
    ? slice.map(({ digest, previousDigest, ...e }) => ({ ...e, prevHash: previousDigest, hash: digest }))
    : slice;
  const last = Math.max(1, Math.ceil(all.length / limit));
  const link = (p: number) => `<${ctx.origin}${API}/audit-log?limit=${limit}&page=${p}>`;
  const links = [`${link(1)}; rel="first"`, `${link(last)}; rel="last"`];
  if (page < last) links.push(`${link(page + 1)}; rel="next"`);
  if (page > 1) links.push(`${link(page - 1)}; rel="prev"`);
  const head = all.at(-1);
  ok(
    ctx,
    {
      tenant: ctx.tenant,
      totalItems: all.length,
      page,
      itemsPerPage: limit,
      order: s.opts.auditNewestFirst ? 'newest-first' : 'oldest-first',
      entries,
      proof: {
        type: 'hash-chain',
        algorithm: 'sha384',
        digestInput: 'previousDigest, sequence, occurredAt, actor, action, resource, idempotencyKey joined by "\\n"',
        genesis: '0'.repeat(96),
        length: all.length,
        headSequence: head?.sequence ?? 0,
        headDigest: head?.digest ?? '0'.repeat(96),
      },
    },
    {},
    {
      link: `${links.join(', ')}, <${ctx.origin}${API}/openapi.json>; rel="http://www.w3.org/ns/hydra/core#apiDocumentation"`,
    },
  );
}
