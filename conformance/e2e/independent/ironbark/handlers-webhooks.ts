// Webhook receivers, their delivery log (a Hangfire-dashboard-like view) with requeue, and the audit log
// projected from the event store with its hash chain as the proof of integrity.
import { auditHash, GENESIS_HASH } from './store.ts';
import type { Input, Output } from './types.ts';
import { ApiError, roundTrip } from './util.ts';
import { DELIVERY_HEADER, SIGNATURE_HEADER, WEBHOOK_EVENTS } from './webhooks.ts';

function receiverUrl(v: unknown): string {
  if (typeof v !== 'string' || v.length < 8 || v.length > 2048) {
    throw new ApiError('invalid_request', 'Field url must be an absolute http(s) address', 'url: required');
  }
  let u: URL;
  try {
    u = new URL(v);
  } catch {
    throw new ApiError('invalid_request', 'Field url must be an absolute http(s) address', 'url: not a URL');
  }
  if (u.protocol !== 'http:' && u.protocol !== 'https:') {
    throw new ApiError('invalid_request', 'Field url must be an absolute http(s) address', 'url: http or https');
  }
  return v;
}

export function createWebhook(input: Input): Output {
  const url = receiverUrl(input.body.url);
  const events = input.body.events;
  const allowed = `events: one of ${WEBHOOK_EVENTS.join(', ')}`;
  if (!Array.isArray(events) || events.length < 1 || events.length > 20) {
    throw new ApiError('invalid_request', 'Field events must be a non-empty array of event names', allowed);
  }
  for (const e of events) {
    if (typeof e !== 'string' || !(WEBHOOK_EVENTS as readonly string[]).includes(e)) {
      throw new ApiError('invalid_request', `Unknown event name ${JSON.stringify(e)}`, allowed);
    }
  }
  const hook = input.app.webhooks.register(input.access.tenant, url, [...new Set(events as string[])]);
  const view = input.app.webhooks.view(hook);
  return {
    data: { ...view, SigningKey: hook.secret, SignatureHeader: SIGNATURE_HEADER, DeliveryIdHeader: DELIVERY_HEADER },
    replayData: {
      ...view,
      SigningKey: null,
      SigningKeyIssued: 'AlreadyIssued',
      SignatureHeader: SIGNATURE_HEADER,
      DeliveryIdHeader: DELIVERY_HEADER,
    },
  };
}

function hookOf(input: Input) {
  const id = input.params.webhookId ?? '';
  const hook = input.app.webhooks.find(input.access.tenant, id);
  if (!hook) throw new ApiError('not_found', 'Webhook receiver not found', `webhookId: ${id}`);
  return hook;
}

export function listWebhooks(input: Input): Output {
  const hooks = input.app.webhooks.list(input.access.tenant).map((h) => input.app.webhooks.view(h));
  return { data: { count: hooks.length, webhooks: hooks } };
}

export function getWebhook(input: Input): Output {
  return { data: input.app.webhooks.view(hookOf(input)) };
}

export function deleteWebhook(input: Input): Output {
  const hook = hookOf(input);
  hook.Status = 'Removed';
  input.app.store.append(input.access.tenant, `webhook-${hook.id}`, 'WebhookRemoved', {}, input.access.clientId);
  return { data: { ...input.app.webhooks.view(hook), RemovedAt: roundTrip() } };
}

export function listDeliveries(input: Input): Output {
  const hook = hookOf(input);
  const deliveries = input.app.webhooks.deliveriesOf(hook.id).map((d) => input.app.webhooks.viewDelivery(d));
  return { data: { webhookId: hook.id, count: deliveries.length, deliveries } };
}

export function requeueDelivery(input: Input): Output {
  const hook = hookOf(input);
  const id = input.params.deliveryId ?? '';
  const d = input.app.webhooks.deliveries.get(id);
  if (!d || d.webhookId !== hook.id) throw new ApiError('not_found', 'Delivery not found', `deliveryId: ${id}`);
  input.app.webhooks.requeue(d);
  input.app.store.append(
    input.access.tenant,
    `webhook-${hook.id}`,
    'DeliveryRequeued',
    { DeliveryId: d.id },
    input.access.clientId,
  );
  return { data: { ...input.app.webhooks.viewDelivery(d), State: 'Enqueued', RequeuedAt: roundTrip() } };
}

export function auditLog(input: Input): Output {
  const raw = input.ctx.url.searchParams.get('limit');
  let limit = 50;
  if (raw !== null) {
    if (!/^\d+$/.test(raw) || Number(raw) < 1 || Number(raw) > 500) {
      throw new ApiError(
        'invalid_request',
        'Query parameter limit must be an integer from 1 to 500',
        'limit: 1 to 500',
      );
    }
    limit = Number(raw);
  }
  const chain = input.app.store.audit.get(input.access.tenant) ?? [];
  const entries = chain.slice(-limit);
  const head = chain.at(-1);
  return {
    data: {
      tenant: input.access.tenant,
      count: entries.length,
      entries,
      Proof: {
        Kind: 'HashChain',
        Algorithm: 'SHA-256',
        Formula: 'hex(sha256(PreviousHash|Sequence|EventType|StreamId|At))',
        GenesisHash: GENESIS_HASH,
        HeadSequence: head?.Sequence ?? 0,
        HeadHash: head?.Hash ?? GENESIS_HASH,
        TotalEntries: chain.length,
        Verified: chain.every(
          (e, i) => e.PreviousHash === (i === 0 ? GENESIS_HASH : chain[i - 1]?.Hash) && auditHash(e) === e.Hash,
        ),
      },
    },
  };
}
