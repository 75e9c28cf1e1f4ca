// Connections of a tenant: created `pending` (nextStep `await_enablement`), `enabled` shortly after
// (nextStep `none`). Listed newest first, all of them; `limit` and an opaque `cursor` page on request.

import { record } from './audit.ts';
import type { Access } from './auth.ts';
import { capabilityById, connectorById, decide } from './catalog.ts';
import { ApiError, badRequest, type Ctx, notFound, ok } from './http-kit.ts';
import { type Connection, later, type State } from './state.ts';
import { publishConnection } from './stream.ts';
import { environment, newId, str, strings, timestamp } from './values.ts';

export function checkCapability(ctx: Ctx, body: Record<string, unknown>): void {
  const connectorId = str(body, 'connectorId', 2, 120);
  const capability = str(body, 'capability', 2, 120);
  const env = environment(body, true) ?? 'sandbox';
  ok(ctx, { decision: decide(connectorId, capability), environment: env });
}

/** Validates the body at once; the returned operation runs under the idempotency record. */
export function createConnection(state: State, ctx: Ctx, access: Access, body: Record<string, unknown>) {
  const connectorId = str(body, 'connectorId', 2, 120);
  const env = environment(body, false) ?? 'sandbox';
  const scopeLabel = str(body, 'scopeLabel', 2, 120);
  const capabilities = strings(body, 'capabilities', 1, 24, 2, 120);
  return () => {
    const connector = connectorById(connectorId);
    if (!connector) throw notFound('connector not found', `no connector ${connectorId}`);
    const entries = capabilities.map((name) => {
      const cap = capabilityById(name);
      if (!cap) throw badRequest(`unknown capability ${name}`, 'see GET /api/public/v1/capabilities');
      if (!decide(connectorId, name).allowed) {
        throw new ApiError(
          409,
          'capability_denied',
          `capability ${name} is not released for this connection`,
          `connector ${connectorId} does not offer ${name}`,
          'have the capability released',
        );
      }
      return { capability: cap.id, critical: cap.critical, idempotencyRequired: cap.idempotencyRequired };
    });
    const connection: Connection = {
      id: newId('con'),
      connectorId,
      environment: env,
      scopeLabel,
      state: 'pending',
      capabilities: entries,
      nextStep: 'await_enablement',
      createdAt: timestamp(),
    };
    const list = state.connections.get(access.tenant) ?? [];
    list.push(connection);
    state.connections.set(access.tenant, list);
    record(
      state,
      access.tenant,
      access.clientId,
      'connection.created',
      { type: 'connection', id: connection.id },
      ctx.requestId,
    );
    const snapshot = structuredClone(connection);
    publishConnection(state, access.tenant, 'connection.created', snapshot);
    later(state, state.options.activationMs, () => {
      connection.state = 'enabled';
      connection.nextStep = 'none';
      record(state, access.tenant, 'system', 'connection.enabled', { type: 'connection', id: connection.id }, 'system');
      publishConnection(state, access.tenant, 'connection.enabled', structuredClone(connection));
    });
    return snapshot;
  };
}

/** A long-lived tenant: `n` enabled connections made before the run (a staging deployment's history). */
export function seedConnections(state: State, tenant: string, n: number): void {
  const list = state.connections.get(tenant) ?? [];
  for (let i = 0; i < n; i++) {
    const cap = { capability: 'orders.read', critical: false, idempotencyRequired: false };
    const c: Connection = {
      id: newId('con'),
      connectorId: 'cnr_3Mgv3NmgBOXdB8s8PZEFB74YEFv',
      environment: 'sandbox',
      scopeLabel: `Earlier venue ${i + 1}`,
      state: 'enabled',
      capabilities: [cap],
      nextStep: 'none',
      createdAt: timestamp(),
    };
    list.push(c);
    // Its history on the stream too, for the first `seedStreamConnections` (no receiver exists yet: no delivery).
    if (i < state.options.seedStreamConnections) {
      publishConnection(state, tenant, 'connection.created', c);
      publishConnection(state, tenant, 'connection.enabled', c);
    }
  }
  state.connections.set(tenant, list);
}

const encodeCursor = (id: string) => Buffer.from(`after:${id}`).toString('base64url');
function decodeCursor(raw: string): string {
  const text = Buffer.from(raw, 'base64url').toString('utf8');
  if (!text.startsWith('after:')) throw badRequest('cursor is malformed');
  return text.slice(6);
}

export function listConnections(state: State, ctx: Ctx, access: Access): void {
  const q = ctx.url.searchParams;
  const limitRaw = q.get('limit');
  if (limitRaw !== null && !/^([1-9]\d?|100)$/.test(limitRaw))
    throw badRequest('limit must be an integer from 1 to 100');
  // The interface lists this endpoint without parameters: without `limit` the answer holds every connection.
  const limit = limitRaw === null ? Number.MAX_SAFE_INTEGER : Number(limitRaw);
  const all = [...(state.connections.get(access.tenant) ?? [])].reverse();
  let start = 0;
  const cursor = q.get('cursor');
  if (cursor !== null) {
    const after = decodeCursor(cursor);
    start = all.findIndex((c) => c.id === after) + 1;
    if (start === 0) throw badRequest('cursor is not a connection of this listing');
  }
  const page = all.slice(start, start + limit);
  const last = page.at(-1);
  const nextCursor = start + limit < all.length && last ? encodeCursor(last.id) : null;
  ok(ctx, { tenant: access.tenant, count: page.length, connections: page, nextCursor });
}

export function getConnection(state: State, ctx: Ctx, access: Access, id: string): void {
  const found = (state.connections.get(access.tenant) ?? []).find((c) => c.id === id);
  if (!found) throw notFound('connection not found', `no connection ${id} for this tenant`);
  ok(ctx, found);
}
