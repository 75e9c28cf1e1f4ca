// Connections: written to the table at once, listed through a GSI that is eventually consistent (a new
// connection shows in GET /connections lagMs after the create answered, jittered 0.4x-1.6x, under 0.5 s).
// States: `requested` (nextStep `await_provider_confirmation`) -> `active` (nextStep `none`) activateMs later.

import { capabilityById, connectorById } from './catalog.ts';
import { ApiError, parseObject } from './http-kit.ts';
import { ulid } from './ids.ts';
import { environment, onlyFields, text, textList } from './validate.ts';

export interface Connection {
  id: string;
  connectorId: string;
  environment: string;
  scopeLabel: string;
  state: string;
  capabilities: { capability: string; critical: boolean; idempotencyRequired: boolean }[];
  nextStep: string;
  createdAt: string;
}

export interface ConnectionOptions {
  lagMs: number;
  activateMs: number;
  /** Called on every change: the stream and the webhooks hear of it. */
  onChange: (tenant: string, event: string, connection: Connection) => void;
  /** Told of every list read that left out a connection still inside its lag (to measure a client's wait). */
  trace?: ((line: string) => void) | undefined;
}

interface Row {
  tenant: string;
  createdAt: number;
  visibleAt: number;
  connection: Connection;
}

export function createConnections(options: ConnectionOptions) {
  const rows: Row[] = [];
  const timers = new Set<NodeJS.Timeout>();

  function lag(): number {
    if (options.lagMs <= 0) return 0;
    return Math.min(490, options.lagMs * (0.4 + Math.random() * 1.2));
  }

  /** Validates the body: the field list of the interface is the schema (unknown fields are refused). */
  function parse(raw: string) {
    const body = parseObject(raw);
    const connectorId = text(body, 'connectorId', 2, 120) as string;
    const env = environment(body, 'environment', true) as string;
    const scopeLabel = text(body, 'scopeLabel', 2, 120) as string;
    const capabilities = textList(body, 'capabilities', 1, 24, 2, 120);
    onlyFields(body, ['connectorId', 'environment', 'scopeLabel', 'capabilities']);
    return { body, connectorId, environment: env, scopeLabel, capabilities };
  }

  function create(tenant: string, input: ReturnType<typeof parse>): Connection {
    const connector = connectorById(input.connectorId);
    if (!connector)
      throw new ApiError('not_found', 'The connector does not exist.', `connectorId: ${input.connectorId}`);
    const capabilities = input.capabilities.map((id) => {
      const cap = capabilityById(id);
      if (!cap || !connector.capabilities.includes(id)) {
        throw new ApiError(
          'capability_denied',
          'A capability is not released for this connection.',
          `capabilities: ${id} is not offered by ${connector.id}`,
          'Have the capability released, or leave it out.',
        );
      }
      return { capability: id, critical: cap.critical, idempotencyRequired: cap.idempotencyRequired };
    });
    const connection: Connection = {
      id: ulid(),
      connectorId: connector.id,
      environment: input.environment,
      scopeLabel: input.scopeLabel,
      state: 'requested',
      capabilities,
      nextStep: 'await_provider_confirmation',
      createdAt: new Date().toISOString(),
    };
    const now = Date.now();
    rows.push({ tenant, createdAt: now, visibleAt: now + lag(), connection });
    options.onChange(tenant, 'connection.requested', structuredClone(connection));
    const t = setTimeout(() => {
      timers.delete(t);
      connection.state = 'active';
      connection.nextStep = 'none';
      options.onChange(tenant, 'connection.active', structuredClone(connection));
    }, options.activateMs);
    timers.add(t);
    return structuredClone(connection);
  }

  function list(tenant: string) {
    const now = Date.now();
    for (const r of rows) {
      if (r.tenant === tenant && r.visibleAt > now) {
        options.trace?.(
          `lag: ${r.connection.scopeLabel} (${r.connection.id}) read ${now - r.createdAt} ms after its creation, listed from ${Math.round(r.visibleAt - r.createdAt)} ms`,
        );
      }
    }
    const connections = rows.filter((r) => r.tenant === tenant && r.visibleAt <= now).map((r) => r.connection);
    return { tenant, count: connections.length, connections };
  }

  function close(): void {
    for (const t of timers) clearTimeout(t);
  }

  return { parse, create, list, close };
}

export type Connections = ReturnType<typeof createConnections>;
