import { AUDIT_DEFAULTS } from '../contract/simulator-defaults.ts';
import { tenantFeed, PUBLIC_FEED } from '../events/feed.ts';
import type { Delivery } from '../state/delivery-log.ts';
import { all, andThen } from '../state/ports/maybe-promise.ts';
import type { Journal } from './journal.ts';
import type { InspectorStores } from './stores.ts';

// Read models of the inspector's views: plain JSON built on request, never on the API's hot path.

/** Tenants, clock, faults, rate limit and counts: the header and the "clock & faults" view. */
export function overview(state: InspectorStores, journal?: Pick<Journal, 'stats'>) {
  const counts = all([
    state.connections.count(),
    state.receivers.count(),
    state.idempotency.size(),
    state.faults.list(),
  ] as const);
  return andThen(counts, ([connections, receivers, idempotencyRecords, faults]) => ({
    tenants: [...state.tenants.values()].map((t) => ({ id: t.id, name: t.name })),
    environment: state.environment,
    clock: { now: new Date(state.clock.now()).toISOString(), offsetMs: state.clock.offset() },
    faults,
    rateLimit: state.rateLimits.settings(),
    counts: {
      connections,
      receivers,
      idempotencyRecords,
      pendingDeliveries: state.dispatcher.pending(),
    },
    ...(journal ? { journal: journal.stats() } : {}),
  }));
}

/**
 * A tenant's connections, each with its state history read from the audit chain (who moved it, when, under which request).
 * @example (await connectionsView(state, 'harbour-kitchens'))[0].history // [{ action: 'connection.create', at, actor, requestId }, ...]
 */
export function connectionsView(state: InspectorStores, tenant: string) {
  // Oldest first: a history reads forward.
  const page = state.audit.list(tenant, { limit: AUDIT_DEFAULTS.maxLimit });
  return andThen(page, (p) => {
    const entries = p.entries.slice().reverse();
    return andThen(state.connections.list(tenant), (connections) =>
      connections.map((connection) => ({
        connection,
        history: entries
          .filter((e) => e.target === `connection:${connection.id}`)
          .map((e) => ({ seq: e.seq, at: e.at, action: e.action, actor: e.actor, requestId: e.requestId })),
      })),
    );
  });
}

function deliveryView(d: Delivery, header: string) {
  // Each attempt stored the header it carried; older records without it show the name only, never a
  // value recomputed here (the signed time is real time and may carry a fault's skew).
  return { ...d, attempts: d.attempts.map((a) => ({ ...a, signatureHeader: a.signatureHeader ?? header })) };
}

/** A tenant's webhook receivers (no secrets) with their delivery logs, newest first, each attempt with its signature header. */
export function webhooksView(state: InspectorStores, tenant: string, signatureHeader: string) {
  return andThen(state.receivers.list(tenant), (list) => {
    const logs = all(list.map((r) => state.dispatcher.log.listByReceiver(r.id, { limit: 50 })));
    return andThen(logs, (deliveries) =>
      list.map(({ secret: _s, tenant: _t, ...receiver }, i) => ({
        receiver,
        deliveries: (deliveries[i] ?? []).map((d) => deliveryView(d, signatureHeader)),
      })),
    );
  });
}

/** Every feed of the status stream with its numbers and newest messages. */
export async function streamView(state: InspectorStores) {
  const keys = new Set([PUBLIC_FEED, ...[...state.tenants.keys()].map(tenantFeed), ...(await state.feeds.keys())]);
  return Promise.all(
    [...keys].map(async (key) => {
      const lastId = await state.feeds.lastId(key);
      const after = await state.feeds.after(key, Math.max(0, lastId - 20));
      return {
        feed: key,
        lastId,
        oldestRetained: await state.feeds.oldestRetained(key),
        subscribers: state.feeds.subscriberCount(key),
        recent: 'messages' in after ? after.messages.slice().reverse() : [],
      };
    }),
  );
}

/** A tenant's audit entries and proof as the API returns them; the page recomputes the chain itself. */
export function auditView(state: InspectorStores, tenant: string) {
  return state.audit.list(tenant, { limit: AUDIT_DEFAULTS.maxLimit });
}
