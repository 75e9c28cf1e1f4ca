import type { Capability } from '../contract/catalog.ts';
import type { Connection } from '../contract/connections.ts';
import { ApiError } from '../core/api-error.ts';
import { ok } from '../core/reply.ts';
import { andThen } from '../state/ports/maybe-promise.ts';
import type { HandlerDeps, HandlerGroup } from './types.ts';

export type ConnectionDeps = Pick<HandlerDeps, 'connections' | 'catalog' | 'idempotency'>;

type Booked = Connection['capabilities'][number];
// One frozen entry per catalog capability, shared by every connection that books it: a connection keeps
// references, not three objects and strings of its own per capability (they outlived the request in the
// record, its snapshot and their copies: a third of what a creation kept, and the collector copied it).
// Keyed by the catalog's record, so a reloaded catalog gets entries of its own.
const bookedEntries = new WeakMap<Capability, Booked>();
function booked(cap: Capability): Booked {
  let entry = bookedEntries.get(cap);
  if (!entry) {
    entry = Object.freeze({ capability: cap.id, critical: cap.critical, idempotencyRequired: cap.idempotencyRequired });
    bookedEntries.set(cap, entry);
  }
  return entry;
}

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
    const capabilities: Booked[] = [];
    const denied: string[] = [];
    for (const id of requested) {
      const cap = state.catalog.capability(id);
      if (!cap || !connector.capabilities.includes(id) || restricted.includes(id)) denied.push(id);
      else capabilities.push(booked(cap));
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
        // Read-only from here on: the record, its answer and its events share the list. A copy of
        // exactly its length (push left room for 17 entries, and the record keeps it as long as it lives).
        capabilities: Object.freeze(capabilities.slice()) as Booked[],
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
