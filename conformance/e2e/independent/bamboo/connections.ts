// Connections: the tenant's list and the keyed creation. States: `pending` on creation, `live` after
// activationMs (an event on the stream and a webhook for both). A capability the connector does not offer
// is refused 409 capability_denied; an unknown connector 404 not_found.

import { recordAudit } from './audit.ts';
import { capabilityById, connectorById } from './catalog.ts';
import { enqueue } from './deliveries.ts';
import { idempotent } from './idempotency.ts';
import type { Ctx } from './pipeline.ts';
import type { Connection, State } from './state.ts';
import { denyUnknown, environment, text, textList } from './validate.ts';
import { ApiError, type Call, jsonBody, notFound, ok, timestamp, typeId } from './wire.ts';

export function publicView(c: Connection): Record<string, unknown> {
  const { tenant: _tenant, ...rest } = c;
  return rest;
}

export function listConnections(call: Call, ctx: Ctx): void {
  const mine = ctx.state.connections.filter((c) => c.tenant === ctx.tenant).map(publicView);
  ok(call, { tenant: ctx.tenant, count: mine.length, connections: mine });
}

export async function createConnection(call: Call, ctx: Ctx): Promise<void> {
  const body = await jsonBody(call.req);
  denyUnknown(body, ['connectorId', 'environment', 'scopeLabel', 'capabilities']);
  const connectorId = text(body, 'connectorId', 2, 120);
  const env = environment(body, 'environment');
  const scopeLabel = text(body, 'scopeLabel', 2, 120);
  const wanted = textList(body, 'capabilities', 1, 24, 2, 120);
  await idempotent(call, ctx, body, () => {
    const connector = connectorById(connectorId);
    if (!connector) throw notFound(`No connector ${connectorId}.`);
    const refused = wanted.filter((c) => !connector.capabilities.includes(c));
    if (refused.length > 0) {
      throw new ApiError(
        409,
        'capability_denied',
        'The capability is not released for this connection.',
        `Not offered by ${connectorId}: ${refused.join(', ')}.`,
        'Have the capability released.',
      );
    }
    const unique = [...new Set(wanted)];
    const connection: Connection = {
      id: typeId('conn'),
      connectorId,
      environment: env,
      scopeLabel,
      state: 'pending',
      capabilities: unique.map((c) => {
        const cap = capabilityById(c);
        return {
          capability: c,
          critical: cap?.critical ?? false,
          idempotencyRequired: cap?.idempotencyRequired ?? false,
        };
      }),
      nextStep: 'await_activation',
      createdAt: timestamp(),
      tenant: ctx.tenant,
    };
    const state = ctx.state;
    state.connections.push(connection);
    recordAudit(state, ctx, call, 'connection.created', connection.id);
    announce(state, connection, 'connection.created');
    state.later(state.options.activationMs, () => {
      connection.state = 'live';
      connection.nextStep = 'none';
      announce(state, connection, 'connection.live');
    });
    return publicView(connection);
  });
}

function announce(state: State, c: Connection, kind: string): void {
  state.publish(kind, {
    connectionId: c.id,
    connectorId: c.connectorId,
    environment: c.environment,
    state: c.state,
    at: timestamp(),
  });
  enqueue(state, c.tenant, kind, { connection: publicView(c) });
}
