// Connections and capability checks. States (birch's own): pending_activation -> active (after a short
// provisioning delay) -> paused -> active. A paused connection's capabilities are denied.
import { type Capability, capabilities, connectors, ENVIRONMENTS } from './catalog.ts';
import type { EventBus } from './events.ts';
import { HttpError, invalid, notFound, str } from './http-util.ts';

export const ACTIVATION_DELAY_MS = 1500;

export type Connection = {
  id: string;
  connectorId: string;
  environment: string;
  scopeLabel: string;
  state: string;
  capabilities: { capability: string; critical: boolean; idempotencyRequired: boolean }[];
  nextStep: string;
  createdAt: string;
  tenant: string;
  updated_at: string;
};

const NEXT_STEP: Record<string, string> = {
  pending_activation: 'Wait for the provider to confirm the activation (usually a few seconds).',
  active: 'Nothing to do: the connection is active.',
  paused: 'Resume the connection to use its capabilities again.',
};

const capabilityById = (id: string): Capability | undefined => capabilities.find((c) => c.id === id);

function denied(message: string, detail: string): HttpError {
  return new HttpError(409, 'capability_denied', message, {
    detail,
    hint: 'Have the capability released for this connection.',
  });
}

export function environmentOf(body: Record<string, unknown>, required: boolean): string {
  const env = body.environment;
  if (env === undefined && !required) return 'sandbox';
  if (typeof env !== 'string' || !ENVIRONMENTS.includes(env))
    throw invalid('Field environment is not a known environment.', `environment: one of ${ENVIRONMENTS.join(', ')}`);
  return env;
}

// POST /capabilities: a decision, never an error for a known connector.
export function checkCapability(body: Record<string, unknown>): Record<string, unknown> {
  const connectorId = str(body, 'connectorId', 2, 120) ?? '';
  const capability = str(body, 'capability', 2, 120) ?? '';
  const environment = environmentOf(body, false);
  const connector = connectors.find((c) => c.id === connectorId);
  if (!connector) throw notFound('The connector does not exist.');
  const cap = capabilityById(capability);
  let allowed = false;
  let reason: string;
  if (!cap) reason = 'capability_unknown: not in the capability catalog';
  else if (!connector.capabilities.includes(capability))
    reason = `not_offered: ${connector.name} does not offer ${capability}`;
  else if (connector.unreleased_in[environment]?.includes(capability))
    reason = `not_released: ${capability} is not released for ${environment}`;
  else {
    allowed = true;
    reason = `released: ${capability} is available for ${environment}`;
  }
  return {
    decision: {
      connectorId,
      capability,
      allowed,
      critical: cap?.critical ?? false,
      idempotencyRequired: cap?.idempotencyRequired ?? false,
      reason,
    },
    environment,
  };
}

export class Connections {
  list: Connection[] = [];
  nextId = 1001;
  timers = new Set<NodeJS.Timeout>();
  bus: EventBus;
  creationEvent: string;
  constructor(bus: EventBus, creationEvent: string) {
    this.bus = bus;
    this.creationEvent = creationEvent;
  }

  static validate(body: Record<string, unknown>): {
    connectorId: string;
    environment: string;
    scopeLabel: string;
    caps: string[];
  } {
    const connectorId = str(body, 'connectorId', 2, 120) ?? '';
    const environment = environmentOf(body, true);
    const scopeLabel = str(body, 'scopeLabel', 2, 120) ?? '';
    const caps = body.capabilities;
    if (!Array.isArray(caps) || caps.length < 1 || caps.length > 24)
      throw invalid('Field capabilities must hold 1 to 24 items.', 'capabilities: 1 to 24 strings');
    for (const c of caps) {
      if (typeof c !== 'string' || c.length < 2 || c.length > 120)
        throw invalid('Each capability must be a string of length 2 to 120.', 'capabilities[]: length 2 to 120');
    }
    return { connectorId, environment, scopeLabel, caps: caps as string[] };
  }

  create(tenant: string, body: Record<string, unknown>): Connection {
    const v = Connections.validate(body);
    const connector = connectors.find((c) => c.id === v.connectorId);
    if (!connector) throw notFound('The connector does not exist.');
    const entries: Connection['capabilities'] = [];
    for (const id of [...new Set(v.caps)]) {
      const cap = capabilityById(id);
      if (!cap || !connector.capabilities.includes(id))
        throw denied('The capability is not released for this connection.', `${id} is not offered by ${connector.id}`);
      if (connector.unreleased_in[v.environment]?.includes(id))
        throw denied(
          'The capability is not released for this connection.',
          `${id} is not released for ${v.environment}`,
        );
      entries.push({ capability: id, critical: cap.critical, idempotencyRequired: cap.idempotencyRequired });
    }
    const now = new Date().toISOString();
    const conn: Connection = {
      id: String(this.nextId++),
      connectorId: connector.id,
      environment: v.environment,
      scopeLabel: v.scopeLabel,
      state: 'pending_activation',
      capabilities: entries,
      nextStep: NEXT_STEP.pending_activation ?? '',
      createdAt: now,
      tenant,
      updated_at: now,
    };
    this.list.push(conn);
    this.bus.publish(this.creationEvent, tenant, {
      connection_id: conn.id,
      state: conn.state,
      environment: conn.environment,
    });
    const timer = setTimeout(() => {
      this.timers.delete(timer);
      if (conn.state === 'pending_activation') this.transition(conn, 'active');
    }, ACTIVATION_DELAY_MS);
    this.timers.add(timer);
    return conn;
  }

  transition(conn: Connection, to: string): void {
    const from = conn.state;
    conn.state = to;
    conn.nextStep = NEXT_STEP[to] ?? '';
    conn.updated_at = new Date().toISOString();
    this.bus.publish(to === 'paused' ? 'connection.paused' : 'connection.state_changed', conn.tenant, {
      connection_id: conn.id,
      from_state: from,
      state: to,
    });
  }

  ofTenant(tenant: string): Connection[] {
    return this.list.filter((c) => c.tenant === tenant);
  }

  find(tenant: string, id: string): Connection {
    const c = this.list.find((x) => x.id === id && x.tenant === tenant);
    if (!c) throw notFound('The connection does not exist.');
    return c;
  }

  // POST /connections/{id}/pause and /resume
  setPaused(tenant: string, id: string, paused: boolean): Connection {
    const c = this.find(tenant, id);
    if (paused && c.state !== 'paused') this.transition(c, 'paused');
    if (!paused && c.state === 'paused') this.transition(c, 'active');
    return c;
  }

  close(): void {
    for (const t of this.timers) clearTimeout(t);
    this.timers.clear();
  }
}

export function connectionView(c: Connection): Record<string, unknown> {
  const { tenant: _tenant, ...rest } = c;
  return rest;
}
