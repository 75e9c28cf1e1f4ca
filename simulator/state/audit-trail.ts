import type { DomainEvent, EventBus } from './domain-events.ts';

/** One recorded change: who (actor), what (action, target), when (at), and the call (requestId). */
export interface AuditRecord {
  tenant: string;
  actor: string;
  action: string;
  target: { type: string; id: string };
  at: string;
  requestId: string;
}

export interface AuditAppender {
  append(record: AuditRecord): void;
}

/**
 * The audit hook: every domain event (each successful modifying call and each state change) becomes
 * an audit record, so no write path can forget to audit.
 */
export function recordDomainEventsIn(bus: EventBus, appender: AuditAppender): () => void {
  return bus.on((e: DomainEvent) =>
    appender.append({ tenant: e.tenant, actor: e.actor, action: e.type, target: e.target, at: new Date(e.at).toISOString(), requestId: e.requestId }),
  );
}
