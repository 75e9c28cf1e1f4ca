import { ApiError } from '../core/api-error.ts';
import { ok } from '../core/reply.ts';
import { andThen } from '../state/ports/maybe-promise.ts';
import type { HandlerDeps, HandlerGroup } from './types.ts';

export type ConnectionDeps = Pick<HandlerDeps, 'connections' | 'catalog' | 'idempotency'>;

export const connectionHandlers = {
  listConnections(ctx, state) {
    const tenant = ctx.access.tenant;
    return andThen(state.connections.list(tenant), (connections) =>
      ok({ tenant, count: connections.length, connections }),
    );
  },
  getConnection(ctx, state) {
    return andThen(state.connections.get(ctx.access.tenant, ctx.params.connectionId), (connection) => {
      if (!connection) throw new ApiError('not_found', { detail: 'No connection with this id for this tenant.' });
      return ok(connection);
    });
  },
  createConnection(ctx, state) {
    const body = ctx.body;
    const connector = state.catalog.connector(body.connectorId);
    if (!connector) {
      throw new ApiError('not_found', {
        detail: 'No connector with the id given in body field connectorId.',
        hint: 'GET /api/public/v1/connectors lists the connectors.',
      });
    }
    const requested = [...new Set(body.capabilities)];
    const restricted = connector.restrictedIn?.[body.environment] ?? [];
    // One pass (this is every POST /connections): the booked capabilities, or the ones refused.
    const capabilities: { capability: string; critical: boolean; idempotencyRequired: boolean }[] = [];
    const denied: string[] = [];
    for (const id of requested) {
      const cap = state.catalog.capability(id);
      if (!cap || !connector.capabilities.includes(id) || restricted.includes(id)) denied.push(id);
      else capabilities.push({ capability: id, critical: cap.critical, idempotencyRequired: cap.idempotencyRequired });
    }
    if (denied.length) {
      throw new ApiError('capability_denied', {
        detail: `Not released for connector ${connector.id} in ${body.environment}: ${denied.join(', ')}.`,
        hint: 'Book only capabilities the connector offers in this environment (GET /api/public/v1/connectors), or have them released.',
      });
    }
    const created = state.connections.create(
      {
        tenant: ctx.access.tenant,
        connectorId: connector.id,
        environment: body.environment,
        scopeLabel: body.scopeLabel,
        capabilities,
      },
      { actor: ctx.access.token.clientId, requestId: ctx.requestId, at: ctx.at },
    );
    return andThen(created, (connection) => ok(connection));
  },
  async createIdempotencyKey(ctx, state) {
    const { operation } = ctx.body;
    const issuing = state.idempotency.issue(ctx.access.tenant, operation, ctx.at);
    const issued = issuing instanceof Promise ? await issuing : issuing;
    return ok({ ...issued, expiresAt: new Date(issued.expiresAt).toISOString() });
  },
} satisfies HandlerGroup<ConnectionDeps>;
