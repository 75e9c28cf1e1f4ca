// The catalog reads, the capability check and the `connections` table (integer autoincrement ids shown as
// strings, `created_at` mapped to `createdAt`). A new connection is `pending`; a Bull job activates it after
// `activationMs`. Each change is an event (SSE, webhooks) and an audit entry.
import { CAPABILITIES, CONNECTORS, capabilityById, connectorById, PROVIDERS } from './catalog.ts';
import { HttpError } from './http.ts';
import type { Answer, App, Ctx } from './types.ts';
import { check, oneOf, str, strArray } from './validate.ts';

export const ENVIRONMENTS = ['development', 'sandbox', 'pilot', 'production'] as const;

export interface Connection {
  id: string;
  connectorId: string;
  environment: string;
  scopeLabel: string;
  state: string;
  capabilities: { capability: string; critical: boolean; idempotencyRequired: boolean }[];
  nextStep: string;
  createdAt: string;
  updatedAt: string;
}

const filterString = (name: string) => str(name, 1, 200, true);

export function listProviders(ctx: Ctx): Answer {
  const q = check(ctx.query, 'query', [filterString('category')]);
  const providers = PROVIDERS.filter((p) => q.category === undefined || p.category === q.category);
  return { data: { count: providers.length, providers } };
}

export function listConnectors(ctx: Ctx): Answer {
  const q = check(ctx.query, 'query', [
    filterString('capability'),
    filterString('providerId'),
    filterString('category'),
  ]);
  const connectors = CONNECTORS.filter(
    (c) =>
      (q.capability === undefined || c.capabilities.includes(q.capability as string)) &&
      (q.providerId === undefined || c.providerId === q.providerId) &&
      (q.category === undefined || c.category === q.category),
  );
  return { data: { count: connectors.length, connectors } };
}

export function listCapabilities(): Answer {
  return { data: { count: CAPABILITIES.length, capabilities: CAPABILITIES } };
}

export function checkCapability(ctx: Ctx): Answer {
  const body = check(ctx.body, 'body', [
    str('connectorId', 2, 120),
    str('capability', 2, 120),
    oneOf('environment', ENVIRONMENTS, true),
  ]);
  const connector = connectorById(body.connectorId as string);
  if (!connector)
    throw new HttpError(404, 'not_found', 'Connector not found.', `connectorId: ${String(body.connectorId)}`);
  const cap = capabilityById(body.capability as string);
  const offered = !!cap && connector.capabilities.includes(cap.id);
  const decision = {
    connectorId: connector.id,
    capability: body.capability,
    allowed: offered,
    critical: cap?.critical ?? false,
    idempotencyRequired: cap?.idempotencyRequired ?? false,
    reason: offered ? 'offered_by_connector' : cap ? 'not_offered_by_connector' : 'unknown_capability',
  };
  return { data: { decision, environment: body.environment ?? 'sandbox' } };
}

export class ConnectionTable {
  private readonly rows: (Connection & { tenant: string })[] = [];
  private nextId = 1;
  private readonly timers = new Set<NodeJS.Timeout>();

  private readonly app: () => App;
  constructor(app: () => App) {
    this.app = app;
  }

  private view(row: Connection & { tenant: string }): Connection {
    const { tenant: _t, ...rest } = row;
    return structuredClone(rest);
  }

  list(ctx: Ctx): Answer {
    const connections = this.rows.filter((r) => r.tenant === ctx.tenant).map((r) => this.view(r));
    return { data: { tenant: ctx.tenant, count: connections.length, connections } };
  }

  get(ctx: Ctx): Answer {
    const row = this.rows.find((r) => r.tenant === ctx.tenant && r.id === ctx.params.connectionId);
    if (!row) throw new HttpError(404, 'not_found', 'Connection not found.');
    return { data: this.view(row) };
  }

  create(ctx: Ctx): Answer {
    const body = check(ctx.body, 'body', [
      str('connectorId', 2, 120),
      oneOf('environment', ENVIRONMENTS),
      str('scopeLabel', 2, 120),
      strArray('capabilities', 1, 24, 2, 120),
    ]);
    const connector = connectorById(body.connectorId as string);
    if (!connector)
      throw new HttpError(404, 'not_found', 'Connector not found.', `connectorId: ${String(body.connectorId)}`);
    const wanted = [...new Set(body.capabilities as string[])];
    const denied = wanted.filter((c) => !connector.capabilities.includes(c));
    if (denied.length > 0)
      throw new HttpError(
        409,
        'capability_denied',
        'Capability is not released for this connection.',
        `not offered by ${connector.id}: ${denied.join(', ')}`,
        'Have the capability released.',
      );
    const now = new Date().toISOString();
    const row = {
      tenant: ctx.tenant,
      id: String(this.nextId++),
      connectorId: connector.id,
      environment: body.environment as string,
      scopeLabel: body.scopeLabel as string,
      state: 'pending',
      capabilities: wanted.map((c) => {
        const cap = capabilityById(c);
        return {
          capability: c,
          critical: cap?.critical ?? false,
          idempotencyRequired: cap?.idempotencyRequired ?? false,
        };
      }),
      nextStep: 'await_activation',
      createdAt: now,
      updatedAt: now,
    };
    this.rows.push(row);
    const data = this.view(row);
    return {
      data,
      after: () => {
        this.changed(row, 'connection.created', ctx.clientId, ctx.requestId);
        const t = setTimeout(() => {
          this.timers.delete(t);
          row.state = 'active';
          row.nextStep = 'none';
          row.updatedAt = new Date().toISOString();
          this.changed(row, 'connection.activated', 'system', `bull-job-activate-${row.id}`);
        }, this.app().settings.activationMs);
        this.timers.add(t);
      },
    };
  }

  private changed(row: Connection & { tenant: string }, type: string, actor: string, requestId: string) {
    const app = this.app();
    const view = this.view(row);
    app.audit.record(row.tenant, type, 'connection', row.id, actor, requestId);
    const event = app.events.append(row.tenant, type, { connectionId: row.id, state: row.state, connection: view });
    app.webhooks.publish(row.tenant, type, event.number, view);
  }

  close() {
    for (const t of this.timers) clearTimeout(t);
  }
}
