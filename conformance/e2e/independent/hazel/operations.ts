// The business operations behind the routes: catalog reads, capability decisions, connections and
// their lifecycle (provisioning → active), issued idempotency keys.
import { appendAudit } from './audit.ts';
import type { Capability, Connector } from './catalog.ts';
import { CAPABILITIES, CONNECTORS, capabilityById, connectorById, PROVIDERS } from './catalog.ts';
import type { Ctx } from './http-kit.ts';
import { ApiError } from './http-kit.ts';
import { instant, uuidv7 } from './ids.ts';
import type { ConnectionRecord, State } from './store.ts';
import { later } from './store.ts';
import { publish } from './stream.ts';
import { environment, text, textList } from './validate.ts';
import { dispatch } from './webhooks.ts';

export function listProviders(ctx: Ctx): unknown {
  const category = ctx.url.searchParams.get('category');
  const providers = PROVIDERS.filter((p) => category === null || p.category === category);
  return { count: providers.length, providers };
}

export function listConnectors(ctx: Ctx): unknown {
  const q = ctx.url.searchParams;
  const capability = q.get('capability');
  const providerId = q.get('providerId');
  const category = q.get('category');
  const connectors = CONNECTORS.filter(
    (c) =>
      (capability === null || c.capabilities.includes(capability)) &&
      (providerId === null || c.providerId === providerId) &&
      (category === null || c.category === category),
  );
  return { count: connectors.length, connectors };
}

export function listCapabilities(): unknown {
  return { count: CAPABILITIES.length, capabilities: CAPABILITIES };
}

function knownConnector(id: string): Connector {
  const c = connectorById(id);
  if (!c)
    throw new ApiError('not_found', 'No connector with this id.', {
      hint: 'List the connectors with GET /api/public/v1/connectors.',
    });
  return c;
}

export function checkCapability(body: Record<string, unknown>): unknown {
  const connectorId = text(body, 'connectorId', 2, 120) as string;
  const capability = text(body, 'capability', 2, 120) as string;
  const env = environment(body, 'environment', false) ?? 'sandbox';
  const connector = knownConnector(connectorId);
  const cap: Capability | undefined = capabilityById(capability);
  const offered = cap !== undefined && connector.capabilities.includes(capability);
  const reason = !cap
    ? `The capability ${capability} is not in the catalog.`
    : offered
      ? `${connector.name} offers ${capability} in ${env}.`
      : `${connector.name} does not offer ${capability}.`;
  return {
    decision: {
      connectorId,
      capability,
      allowed: offered,
      critical: cap?.critical ?? false,
      idempotencyRequired: cap?.idempotencyRequired ?? false,
      reason,
    },
    environment: env,
  };
}

export type CreateInput = { connectorId: string; environment: string; scopeLabel: string; capabilities: string[] };

export function parseCreate(body: Record<string, unknown>): CreateInput {
  return {
    connectorId: text(body, 'connectorId', 2, 120) as string,
    environment: environment(body, 'environment', true) as string,
    scopeLabel: text(body, 'scopeLabel', 2, 120) as string,
    capabilities: textList(body, 'capabilities', 1, 24, 2, 120),
  };
}

const NEXT_STEP = {
  provisioning: 'Wait for activation (connection.activated); no action needed.',
  active: 'Ready: call the booked capabilities.',
};

/** Validates against the catalog (404 / 409) and creates; synchronous so idempotency holds. */
export function createConnection(state: State, ctx: Ctx, tenant: string, input: CreateInput): ConnectionRecord {
  if (state.options.unknownConnector400 && !connectorById(input.connectorId)) {
    // HAZEL_UNKNOWN_CONNECTOR_400: a creation naming no catalog connector fails bean validation
    // (@KnownConnector), like any other unsuitable field
    throw new ApiError('invalid_request', 'Field connectorId is invalid.', {
      detail: 'connectorId: not a connector of the catalog',
    });
  }
  const connector = knownConnector(input.connectorId);
  const denied = input.capabilities.find((c) => !connector.capabilities.includes(c));
  if (denied !== undefined) {
    throw new ApiError('capability_denied', 'A capability is not released for this connection.', {
      detail: `${connector.name} does not offer ${denied}.`,
      hint: 'Have the capability released, or book only offered capabilities.',
    });
  }
  const now = instant();
  const record: ConnectionRecord = {
    id: uuidv7(),
    connectorId: connector.id,
    environment: input.environment,
    scopeLabel: input.scopeLabel,
    state: 'provisioning',
    capabilities: input.capabilities.map((c) => {
      const cap = capabilityById(c);
      return {
        capability: c,
        critical: cap?.critical ?? false,
        idempotencyRequired: cap?.idempotencyRequired ?? false,
      };
    }),
    nextStep: NEXT_STEP.provisioning,
    createdAt: now,
    updatedAt: now,
  };
  state.connections.set(record.id, { tenant, record });
  const snapshot = structuredClone(record);
  announce(state, tenant, record, null, ctx.requestId, ctx.clientId ?? 'unknown');
  later(state, state.options.activationMs, () => {
    const previous = record.state;
    record.state = 'active';
    record.nextStep = NEXT_STEP.active;
    record.updatedAt = instant();
    announce(state, tenant, record, previous, null, 'system');
  });
  return snapshot;
}

/** One state change: on the stream, to the tenant's receivers and into the audit log. */
function announce(
  state: State,
  tenant: string,
  c: ConnectionRecord,
  previous: string | null,
  requestId: string | null,
  actor: string,
): void {
  publish(state, 'connection.status', {
    connectionId: c.id,
    connectorId: c.connectorId,
    environment: c.environment,
    state: c.state,
    previousState: previous,
    at: c.updatedAt,
  });
  dispatch(state, tenant, previous === null ? 'connection.created' : 'connection.activated', {
    connection: structuredClone(c),
  });
  appendAudit(state, tenant, {
    action: previous === null ? 'connection.create' : 'connection.activate',
    actor,
    target: { type: 'connection', id: c.id },
    requestId,
    details:
      previous === null
        ? {
            connectorId: c.connectorId,
            environment: c.environment,
            scopeLabel: c.scopeLabel,
            capabilities: c.capabilities.map((x) => x.capability),
          }
        : { from: previous, to: c.state },
  });
}

export function tenantConnections(state: State, tenant: string): ConnectionRecord[] {
  return [...state.connections.values()].filter((c) => c.tenant === tenant).map((c) => c.record);
}

export function oneConnection(state: State, tenant: string, id: string): ConnectionRecord {
  const c = state.connections.get(id);
  if (!c || c.tenant !== tenant)
    throw new ApiError('not_found', 'No connection with this id for this tenant.', {
      hint: 'Compare identifier and tenant header.',
    });
  return c.record;
}
