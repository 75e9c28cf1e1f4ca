// Connections of a tenant, their creation (idempotent) and the Requested → Active timer.
import type { Audit } from './audit.ts';
import { record } from './audit.ts';
import { environmentField } from './catalog.ts';
import type { Ctx } from './http.ts';
import { allowQuery, HttpError, onlyFields, readJsonObject, sendOk, textField } from './http.ts';
import type { Idempotency } from './idempotency.ts';
import { issueKey, requireKey, runIdempotent } from './idempotency.ts';
import type { Connection, Store } from './state.ts';
import { CONNECTORS, capabilityById, newId, tenantConnections } from './state.ts';

export type Emit = (tenant: string, type: string, data: Record<string, unknown>) => void;
export type ConnectionDeps = { store: Store; idem: Idempotency; audit: Audit; emit: Emit; activationMs: number };

const NEXT_REQUESTED = 'The provider is confirming the connection. Check again in a moment.';
const NEXT_ACTIVE = 'The connection is active. No further action is needed.';

export function listConnections(ctx: Ctx, deps: ConnectionDeps): void {
  allowQuery(ctx, []);
  const list = tenantConnections(deps.store, ctx.tenant ?? '');
  sendOk(ctx, { tenant: ctx.tenant, count: list.length, connections: list });
}

function capabilityList(body: Record<string, unknown>): string[] {
  const value = body.capabilities;
  if (!Array.isArray(value) || value.length < 1 || value.length > 24) {
    throw new HttpError('invalid_request', "The field 'capabilities' must be a list of 1 to 24 entries.");
  }
  return value.map((item, index) => {
    if (typeof item !== 'string' || [...item].length < 2 || [...item].length > 120) {
      throw new HttpError(
        'invalid_request',
        `The entry capabilities[${index}] must be a string of 2 to 120 characters.`,
      );
    }
    return item;
  });
}

function eventData(c: Connection): Record<string, unknown> {
  return { connectionId: c.id, connectorId: c.connectorId, environment: c.environment, state: c.state };
}

export async function createConnection(ctx: Ctx, deps: ConnectionDeps): Promise<void> {
  allowQuery(ctx, []);
  const key = requireKey(ctx);
  const { body } = await readJsonObject(ctx);
  onlyFields(body, ['connectorId', 'environment', 'scopeLabel', 'capabilities']);
  const connectorId = textField(body, 'connectorId', 2, 120);
  const environment = environmentField(body, true);
  const scopeLabel = textField(body, 'scopeLabel', 2, 120);
  const requested = capabilityList(body);
  const tenant = ctx.tenant ?? '';
  runIdempotent(ctx, deps.idem, key, body, () => {
    const connector = CONNECTORS.find((c) => c.id === connectorId);
    if (!connector) throw new HttpError('not_found', `Connector '${connectorId}' was not found.`);
    const denied = requested.find((cap) => !connector.capabilities.includes(cap) || !capabilityById(cap));
    if (denied) {
      throw new HttpError(
        'capability_denied',
        `The capability '${denied}' is not released for connector '${connectorId}'.`,
        'Have the capability released.',
      );
    }
    const connection: Connection = {
      id: newId(),
      connectorId,
      environment,
      scopeLabel,
      state: 'Requested',
      capabilities: requested.map((cap) => {
        const known = capabilityById(cap);
        return {
          capability: cap,
          critical: known?.critical ?? false,
          idempotencyRequired: known?.idempotencyRequired ?? false,
        };
      }),
      nextStep: NEXT_REQUESTED,
      createdAt: new Date().toISOString(),
    };
    tenantConnections(deps.store, tenant).push(connection);
    record(deps.audit, tenant, ctx.clientId ?? '', 'connection.created', 'connection', connection.id);
    const snapshot = structuredClone(connection);
    deps.emit(tenant, 'ConnectionCreated', eventData(connection));
    const timer = setTimeout(() => {
      connection.state = 'Active';
      connection.nextStep = NEXT_ACTIVE;
      record(deps.audit, tenant, 'system', 'connection.activated', 'connection', connection.id);
      deps.emit(tenant, 'ConnectionActivated', eventData(connection));
    }, deps.activationMs);
    timer.unref();
    return snapshot;
  });
}

export async function createIdempotencyKey(ctx: Ctx, idem: Idempotency): Promise<void> {
  allowQuery(ctx, []);
  const { body } = await readJsonObject(ctx);
  onlyFields(body, ['operation']);
  const operation = textField(body, 'operation', 2, 80);
  const issued = issueKey(idem, ctx.tenant ?? '');
  sendOk(ctx, { idempotencyKey: issued.key, operation, expiresAt: new Date(issued.expiresAt).toISOString() });
}
