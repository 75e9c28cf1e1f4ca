// Connections of the tenant, their creation (Idempotency-Key required) and the idempotency key generator.
import { randomUUID } from 'node:crypto';
import { capabilityById, connectorById, ENVIRONMENTS } from './catalog.ts';
import { decide } from './catalog-routes.ts';
import { ApiError, type Ctx, ok, readJson } from './http-util.ts';
import { createConnection, type State } from './state.ts';
import { Violations } from './validate.ts';

const tenantOf = (ctx: Ctx) => ctx.tenant ?? '';

export function listConnections(s: State, ctx: Ctx) {
  const all = s.connections.get(tenantOf(ctx)) ?? [];
  const connections = s.opts.connectionsNewestFirst ? [...all].reverse() : all;
  ok(ctx, { tenant: tenantOf(ctx), count: connections.length, connections });
}

/** Another tenant's connection is not found, like one that never existed. */
export function getConnection(s: State, ctx: Ctx, id: string) {
  const c = (s.connections.get(tenantOf(ctx)) ?? []).find((x) => x.id === id);
  if (!c)
    throw new ApiError('not_found', `No connection "${id}" for this tenant.`, 'Compare identifier and tenant header.');
  ok(ctx, c);
}

function validateCreation(body: Record<string, unknown>) {
  const v = new Violations();
  const connectorId = v.string(body, 'connectorId', 2, 120);
  const environment = v.string(body, 'environment', 0, 100);
  v.choice('environment', environment, ENVIRONMENTS);
  const scopeLabel = v.string(body, 'scopeLabel', 2, 120);
  const caps = body.capabilities;
  if (caps === undefined || caps === null) v.list.push('capabilities: This value should not be blank.');
  else if (!Array.isArray(caps)) v.list.push('capabilities: This value should be of type array.');
  else {
    if (caps.length < 1) v.list.push('capabilities: This collection should contain 1 element or more.');
    if (caps.length > 24) v.list.push('capabilities: This collection should contain 24 elements or less.');
    caps.forEach((c, i) => {
      if (typeof c !== 'string') v.list.push(`capabilities[${i}]: This value should be of type string.`);
      else v.length(`capabilities[${i}]`, c, 2, 120);
    });
  }
  v.throwIfAny();
  return {
    connectorId: connectorId ?? '',
    environment: environment ?? '',
    scopeLabel: scopeLabel ?? '',
    capabilities: [...new Set(caps as string[])],
  };
}

export async function createConnectionRoute(s: State, ctx: Ctx) {
  const key = s.idem.require(ctx);
  const body = await readJson(ctx);
  if (!s.opts.storeRefusals) return create(s, ctx, key, body);
  // Stripe-like: a refusal of the body is stored under the key too, and answered again on a repeat.
  const { stored, slot, fingerprint } = s.idem.lookup(ctx, 'POST /connections', body);
  if (stored?.error) {
    const again = Object.assign(new ApiError(stored.error.code, stored.error.detail, stored.error.hint), {
      replayed: true,
    });
    throw again;
  }
  try {
    return create(s, ctx, key, body);
  } catch (e) {
    if (e instanceof ApiError && ['invalid_request', 'not_found', 'capability_denied'].includes(e.code)) {
      s.idem.saveRefusal(slot, fingerprint, e);
    }
    throw e;
  }
}

function create(s: State, ctx: Ctx, key: string, body: Record<string, unknown>) {
  const input = validateCreation(body);
  const { stored, slot, fingerprint } = s.idem.lookup(ctx, 'POST /connections', body);
  if (stored) return ok(ctx, stored.data, { idempotencyKey: key, replayed: true });
  if (!connectorById(input.connectorId)) {
    throw new ApiError(
      'not_found',
      `connectorId: no connector "${input.connectorId}".`,
      'Compare the identifier with GET /connectors.',
    );
  }
  const denied = input.capabilities
    .map((c) => decide(input.connectorId, c, input.environment))
    .filter((d) => !d.allowed);
  if (denied.length) {
    throw new ApiError(
      'capability_denied',
      denied.map((d) => `${d.capability}: ${d.reason}`).join('; '),
      'Have the capability released, or book the connection without it.',
    );
  }
  const conn = createConnection(s, tenantOf(ctx), ctx.clientId ?? '', key, {
    connectorId: input.connectorId,
    environment: input.environment,
    scopeLabel: input.scopeLabel,
    capabilities: input.capabilities.map((c) => {
      const cap = capabilityById(c);
      return {
        capability: c,
        critical: cap?.critical ?? false,
        idempotencyRequired: cap?.idempotencyRequired ?? false,
      };
    }),
  });
  // The stored answer is the creation as answered; the live record moves on with its state.
  const snapshot = JSON.parse(JSON.stringify(conn));
  s.idem.save(slot, fingerprint, snapshot);
  ok(ctx, snapshot, { idempotencyKey: key, replayed: false });
}

export async function issueKey(ctx: Ctx) {
  const body = await readJson(ctx);
  const v = new Violations();
  const operation = v.string(body, 'operation', 2, 80);
  v.throwIfAny();
  ok(ctx, {
    idempotencyKey: randomUUID(),
    operation,
    expiresAt: new Date(Date.now() + 24 * 3600 * 1000).toISOString(),
  });
}
