import type { DomainEvent, EventBus } from '../state/domain-events.ts';
import { flatJoin, newId } from '../lib/ids.ts';
import { isoTime } from '../lib/iso-time.ts';
import type { AuditService } from '../services/audit-service.ts';
import type { FeedService } from '../services/feed-service.ts';
import type { ReceiverService } from '../services/receiver-service.ts';
import { andThen, type MaybePromise } from '../state/ports/maybe-promise.ts';
import type { Dispatcher } from '../webhooks/dispatcher.ts';
import { tenantFeed } from './feed.ts';

export interface FanOutDeps {
  bus: EventBus;
  audit: AuditService;
  feeds: FeedService;
  receivers: Pick<ReceiverService, 'subscribedTo'>;
  dispatcher: Dispatcher;
}

/**
 * Where a tenant event goes: the tenant's feed of the status stream and every receiver subscribed
 * to its name. Used for domain events and for sample events triggered from the control plane.
 */
export function announce(
  deps: Omit<FanOutDeps, 'bus' | 'audit'>,
  tenant: string,
  type: string,
  data: Record<string, unknown>,
  at?: number,
): MaybePromise<{ eventId: string; deliveries: string[] }> {
  const eventId = newId('evt');
  return announceMessage(deps, tenant, type, { eventId, ...data }, at, data);
}

/**
 * announce with the stream message's data (`{ eventId, ...payload }`) built by the caller; the webhook
 * payload (the same without eventId) is made only when a receiver is subscribed.
 */
function announceMessage(
  deps: Omit<FanOutDeps, 'bus' | 'audit'>,
  tenant: string,
  type: string,
  message: { eventId: string } & Record<string, unknown>,
  at?: number,
  payload?: Record<string, unknown>,
): MaybePromise<{ eventId: string; deliveries: string[] }> {
  const { eventId } = message;
  const published = deps.feeds.publish(tenantFeed(tenant), type, message);
  // A feed store that failed to answer loses the stream message, never the deliveries or the write.
  if (published instanceof Promise) published.catch(() => {});
  return andThen(deps.receivers.subscribedTo(tenant, type), (receivers) => {
    if (receivers.length === 0) return { eventId, deliveries: [] };
    const body = payload ?? withoutEventId(message);
    const deliveries = receivers.map(
      (r) =>
        deps.dispatcher.deliver(
          { id: r.id, url: r.url, secret: r.secret, tenant },
          { id: eventId, type, payload: body, ...(at ? { at: new Date(at).toISOString() } : {}) },
        ).id,
    );
    return { eventId, deliveries };
  });
}

function withoutEventId({ eventId: _, ...payload }: { eventId: string } & Record<string, unknown>) {
  return payload;
}

/**
 * Every domain event becomes an audit entry (who, what, when, requestId), a message on the tenant's
 * feed and a delivery to each subscribed receiver, so no write path can forget any of them.
 */
export function connectDomainEvents(deps: FanOutDeps): () => void {
  return deps.bus.on((e: DomainEvent) => {
    const recorded = deps.audit.append(e.tenant, {
      requestId: e.requestId,
      actor: e.actor,
      action: e.type,
      target: flatJoin(e.target.type, ':', e.target.id),
      at: isoTime(e.at),
    });
    if (recorded instanceof Promise) recorded.catch(() => {});
    // The stream message's data is built once, with its event id: every creation makes two events, and
    // a payload spread into a second object per event was garbage the collector copied.
    const message = { eventId: newId('evt'), requestId: e.requestId, target: e.target, ...e.data };
    const announced = announceMessage(deps, e.tenant, e.type, message, e.at);
    // A receiver store that failed to answer loses this event's deliveries, never the write behind it.
    if (announced instanceof Promise) announced.catch(() => {});
  });
}
