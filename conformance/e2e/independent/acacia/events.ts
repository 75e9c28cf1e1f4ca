// One place where a change of a connection fans out: the public stream, the tenant's webhook receivers (through
// the queue) and the tenant's audit log.
import { randomUUID } from 'node:crypto';
import { record } from './audit.ts';
import { enqueue } from './mq.ts';
import type { Connection, State } from './state.ts';
import { later } from './state.ts';
import { publish } from './stream.ts';
import { stamp } from './time.ts';

export const WEBHOOK_EVENTS = ['connection.created', 'connection.activated', 'order.created', 'order.paid'];

function notify(state: State, tenant: string, event: string, c: Connection): void {
  publish(state.stream, event === 'connection.created' ? 'connection.created' : 'connection.state-changed', {
    connectionId: c.id,
    state: c.state,
    environment: c.environment,
    occurredAt: c.updatedAt,
  });
  const eventId = randomUUID();
  const body = JSON.stringify({ eventId, event, occurredAt: c.updatedAt, tenant, data: { connection: c } });
  for (const w of state.webhooks.values()) {
    if (w.tenant !== tenant || w.status !== 'active' || !w.events.includes(event)) continue;
    enqueue(state.queue, { webhookId: w.id, tenant, eventId, event, url: w.url, signingKey: w.signingKey, body });
  }
}

/** A connection was created: announce it, and move it to "active" after the provisioning delay. */
export function connectionCreated(
  state: State,
  tenant: string,
  c: Connection,
  actor: string,
  correlationId: string,
): void {
  record(state.audit, tenant, {
    action: 'connection.create',
    actor,
    resourceType: 'connection',
    resourceId: c.id,
    details: { connectorId: c.connectorId, environment: c.environment, scopeLabel: c.scopeLabel, state: c.state },
    correlationId,
  });
  notify(state, tenant, 'connection.created', c);
  later(state, state.options.activationMs ?? 400, () => {
    c.state = 'active';
    c.nextStep = 'ready-for-traffic';
    c.updatedAt = stamp();
    record(state.audit, tenant, {
      action: 'connection.activate',
      actor: 'system:provisioning',
      resourceType: 'connection',
      resourceId: c.id,
      details: { state: c.state },
      correlationId,
    });
    notify(state, tenant, 'connection.activated', c);
  });
}
