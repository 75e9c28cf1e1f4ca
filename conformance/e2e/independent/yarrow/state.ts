// The shared state of both addresses, and the connection lifecycle: created "provisioning", then "active"
// once the (simulated) provider confirms. Each change goes to the audit chain, the tenant's stream topic and
// the webhook receivers subscribed to it.
import { randomUUID } from 'node:crypto';
import { type Audit, createAudit } from './audit.ts';
import { API } from './catalog.ts';
import { createIdempotency, type Idempotency } from './idempotency.ts';
import { createMessenger, type Messenger, type Webhook } from './messenger.ts';
import type { ResolvedOptions } from './options.ts';
import { createLimiter, type Limiter } from './rate-limit.ts';
import { createHub, type Hub } from './stream.ts';

export interface Connection {
  '@id': string;
  id: string;
  connectorId: string;
  environment: string;
  scopeLabel: string;
  state: string;
  capabilities: { capability: string; critical: boolean; idempotencyRequired: boolean }[];
  nextStep: string;
  createdAt: string;
}

export interface State {
  opts: ResolvedOptions;
  connections: Map<string, Connection[]>;
  webhooks: Map<string, Webhook>;
  audit: Audit;
  hub: Hub;
  messenger: Messenger;
  limiter: Limiter;
  idem: Idempotency;
  timers: Set<NodeJS.Timeout>;
}

export function createState(opts: ResolvedOptions): State {
  return {
    opts,
    connections: new Map(),
    webhooks: new Map(),
    audit: createAudit(),
    hub: createHub(),
    messenger: createMessenger(opts.messengerDelayMs),
    limiter: createLimiter(opts),
    idem: createIdempotency(),
    timers: new Set(),
  };
}

/** Publishes a change of a connection to the stream topic and the subscribed receivers. */
export function announce(s: State, tenant: string, event: string, c: Connection): void {
  const occurredAt = new Date().toISOString();
  // A snapshot: the message shows the connection as it was when it changed, not as it is when read.
  const snapshot = JSON.parse(JSON.stringify(c)) as Connection;
  s.hub.publish(`tenant:${tenant}`, event, {
    type: event,
    connectionId: c.id,
    state: c.state,
    occurredAt,
    connection: snapshot,
  });
  for (const hook of s.webhooks.values()) {
    if (hook.tenant !== tenant || !hook.active || !hook.events.includes(event)) continue;
    const eventId = randomUUID();
    const body = JSON.stringify({ id: eventId, type: event, occurredAt, tenant, data: { connection: snapshot } });
    s.messenger.dispatch(hook, event, eventId, body);
  }
}

export function createConnection(
  s: State,
  tenant: string,
  actor: string,
  key: string,
  c: Omit<Connection, '@id' | 'id' | 'state' | 'nextStep' | 'createdAt'>,
): Connection {
  const id = randomUUID();
  const conn: Connection = {
    '@id': `${API}/connections/${id}`,
    id,
    ...c,
    state: 'provisioning',
    nextStep: 'Wait for the provider to confirm the connection; its state then becomes active.',
    createdAt: new Date().toISOString(),
  };
  const list = s.connections.get(tenant) ?? [];
  s.connections.set(tenant, list);
  list.push(conn);
  s.audit.record(tenant, actor, 'connection.create', conn['@id'], key);
  announce(s, tenant, 'connection.provisioned', conn);
  const t = setTimeout(() => {
    s.timers.delete(t);
    conn.state = 'active';
    conn.nextStep = 'None: the connection is in operation.';
    s.audit.record(tenant, 'system', 'connection.activate', conn['@id']);
    announce(s, tenant, 'connection.activated', conn);
  }, s.opts.activationMs);
  s.timers.add(t);
  return conn;
}
