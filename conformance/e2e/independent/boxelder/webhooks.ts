// Webhook receivers: registration (the signing key shown in that answer only), listing without the key,
// and removal. Sending and the delivery log are in deliveries.ts.
import { randomBytes } from 'node:crypto';
import { record } from './audit.ts';
import { SIGNATURE_HEADER } from './deliveries.ts';
import { ApiError, type Ctx, ok, parseJson, readBody } from './http.ts';
import { once } from './idempotency.ts';
import { EVENT_NAMES, nextId, nowIso, type Rec } from './state.ts';
import { decode } from './validate.ts';

/** The receiver as listed: everything but its signing key, which only the creation answer shows. */
function publicView(w: Rec): Rec {
  const { signing_key: _key, tenant: _tenant, ...rest } = w;
  return rest;
}

export async function createWebhook(ctx: Ctx): Promise<void> {
  const raw = await readBody(ctx.req);
  once(
    ctx,
    raw,
    () => {
      const spec = {
        url: { kind: 'string', required: true, min: 8, max: 2048 },
        events: { kind: 'strings', required: true, min: 2, max: 120, minItems: 1, maxItems: 16 },
      } as const;
      const body = decode(parseJson(raw), spec, ctx.store.opts.rejectUnknownFields);
      let url: URL;
      try {
        url = new URL(body.url);
      } catch {
        throw new ApiError('invalid_request', 'url: must be an absolute http(s) URL');
      }
      if (url.protocol !== 'http:' && url.protocol !== 'https:')
        throw new ApiError('invalid_request', 'url: must be http(s)');
      for (const e of body.events as string[]) {
        if (!EVENT_NAMES.includes(e))
          throw new ApiError('invalid_request', `events: one of ${EVENT_NAMES.join(', ')}`, e);
      }
      const w: Rec = {
        id: String(nextId(ctx.store, 'webhook')),
        url: body.url,
        events: body.events,
        created_at: nowIso(),
        tenant: ctx.tenant,
      };
      w.signing_key = randomBytes(32).toString('hex');
      ctx.store.webhooks.set(w.id, w);
      record(ctx.store, ctx.tenant ?? '', ctx.clientId ?? '', 'webhook.create', `webhook/${w.id}`);
      return { ...publicView(w), signing_key: w.signing_key, signature_header: SIGNATURE_HEADER };
    },
    (data) => {
      if (!ctx.store.opts.replayOmitsKey) return data;
      const { signing_key: _key, ...rest } = data;
      return rest;
    },
  );
}

export function owned(ctx: Ctx, id: string): Rec {
  const w = ctx.store.webhooks.get(id);
  if (!w || w.tenant !== ctx.tenant) throw new ApiError('not_found', 'webhook not found');
  return w;
}

export function listWebhooks(ctx: Ctx): void {
  const webhooks = [...ctx.store.webhooks.values()].filter((w) => w.tenant === ctx.tenant).map(publicView);
  ok(ctx, { count: webhooks.length, webhooks });
}

export function getWebhook(ctx: Ctx, id: string): void {
  ok(ctx, publicView(owned(ctx, id)));
}

export async function deleteWebhook(ctx: Ctx, id: string): Promise<void> {
  const raw = await readBody(ctx.req);
  once(ctx, raw, () => {
    const w = owned(ctx, id);
    ctx.store.webhooks.delete(w.id);
    record(ctx.store, ctx.tenant ?? '', ctx.clientId ?? '', 'webhook.delete', `webhook/${w.id}`);
    return { id: w.id, deleted: true };
  });
}
