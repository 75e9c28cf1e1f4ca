// Connections (numeric string ids, states draft -> enabled -> disabled) and the capability check.
import { appendAudit } from './audit.ts';
import { capabilityById, connectorById } from './catalog.ts';
import type { Call } from './http-kit.ts';
import { isoMicros, sendError, sendOk } from './http-kit.ts';
import { answerAndStore, fingerprint, replayOrConflict, takeKey } from './idempotency.ts';
import type { Connection, State } from './state.ts';
import { later } from './state.ts';
import { publish } from './stream.ts';
import { ENVIRONMENTS, parseBody, validate } from './validate.ts';
import { dispatch } from './webhooks.ts';

const NEXT_STEP: Record<string, string> = { draft: 'await_enablement', enabled: 'none', disabled: 'contact_support' };

function view(c: Connection): Omit<Connection, 'tenant'> {
  const { tenant: _tenant, ...rest } = c;
  return { ...rest, capabilities: c.capabilities.map((x) => ({ ...x })) };
}

/** A state change reaches the stream, the tenant's webhooks and its audit log alike. */
function announce(state: State, c: Connection, event: string, actor: string, requestId: string): void {
  publish(state, event, { connectionId: c.id, state: c.state, environment: c.environment, at: isoMicros() });
  dispatch(state, c.tenant, event, { connection: view(c) });
  appendAudit(state, c.tenant, { event, subjectType: 'connection', subjectId: c.id, actor, requestId });
}

export function listConnections(state: State, call: Call): void {
  const mine = state.connections.filter((c) => c.tenant === call.tenant).map(view);
  sendOk(call, { tenant: call.tenant, count: mine.length, connections: mine });
}

export async function createConnection(state: State, call: Call, raw: string | undefined): Promise<void> {
  if (!takeKey(call, true)) return;
  const body = parseBody(call, raw);
  const rules = {
    connectorId: { kind: 'string', min: 2, max: 120, required: true },
    environment: { kind: 'enum', values: ENVIRONMENTS, required: true },
    scopeLabel: { kind: 'string', min: 2, max: 120, required: true },
    capabilities: { kind: 'strings', minItems: 1, maxItems: 24, min: 2, max: 120, required: true },
  } as const;
  if (!body || !validate(call, body, rules, state.options.strictBodies)) return;
  const print = fingerprint('POST /connections', body);
  if (replayOrConflict(state, call, print)) return;
  const connector = connectorById(String(body.connectorId));
  if (!connector) {
    sendError(
      call,
      'not_found',
      'No query results for model [Connector].',
      'The connectorId names no connector of the catalog.',
      'Pick a connector from GET /api/public/v1/connectors.',
    );
    return;
  }
  const wanted = body.capabilities as string[];
  const refused = wanted.filter((id) => !connector.capabilities.includes(id));
  if (refused.length > 0) {
    sendError(
      call,
      'capability_denied',
      'A capability is not released for this connection.',
      `${refused.length} of the requested capabilities are not offered by this connector.`,
      `Book only capabilities the connector lists: ${connector.capabilities.join(', ')}.`,
    );
    return;
  }
  const c: Connection = {
    id: String(state.nextId.connection++),
    connectorId: connector.id,
    environment: String(body.environment),
    scopeLabel: String(body.scopeLabel),
    state: 'draft',
    capabilities: wanted.map((id) => {
      const cap = capabilityById(id);
      return {
        capability: id,
        critical: cap?.critical ?? false,
        idempotencyRequired: cap?.idempotencyRequired ?? false,
      };
    }),
    nextStep: NEXT_STEP.draft ?? '',
    createdAt: isoMicros(),
    tenant: call.tenant ?? '',
  };
  state.connections.push(c);
  answerAndStore(state, call, print, view(c));
  const actor = call.clientId ?? '';
  announce(state, c, 'connection.created', actor, call.requestId);
  // Enablement is a queued job in the real service; here a timer stands in for the worker.
  later(state, state.options.enableAfterMs, () => {
    if (c.state !== 'draft') return;
    c.state = 'enabled';
    c.nextStep = NEXT_STEP.enabled ?? '';
    announce(state, c, 'connection.enabled', 'system', `job-${c.id}`);
  });
}

export function checkCapability(state: State, call: Call, raw: string | undefined): void {
  if (!takeKey(call, false)) return;
  const body = parseBody(call, raw);
  const rules = {
    connectorId: { kind: 'string', min: 2, max: 120, required: true },
    capability: { kind: 'string', min: 2, max: 120, required: true },
    environment: { kind: 'enum', values: ENVIRONMENTS, required: false },
  } as const;
  if (!body || !validate(call, body, rules, state.options.strictBodies)) return;
  const print = fingerprint('POST /capabilities', body);
  if (replayOrConflict(state, call, print)) return;
  const connector = connectorById(String(body.connectorId));
  if (!connector) {
    sendError(
      call,
      'not_found',
      'No query results for model [Connector].',
      'The connectorId names no connector of the catalog.',
      'Pick a connector from GET /api/public/v1/connectors.',
    );
    return;
  }
  const capability = String(body.capability);
  const environment = typeof body.environment === 'string' ? body.environment : 'sandbox';
  const cap = capabilityById(capability);
  const disabled = state.connections.some(
    (c) => c.tenant === call.tenant && c.connectorId === connector.id && c.state === 'disabled',
  );
  let allowed = false;
  let reason: string;
  if (!cap) reason = 'The capability is not in the catalog.';
  else if (!connector.capabilities.includes(capability))
    reason = `The connector ${connector.id} does not offer this capability.`;
  else if (disabled) reason = `The tenant's connection to ${connector.id} is disabled.`;
  else {
    allowed = true;
    reason = `Offered by ${connector.id} and released for ${environment}.`;
  }
  const decision = {
    connectorId: connector.id,
    capability,
    allowed,
    critical: cap?.critical ?? false,
    idempotencyRequired: cap?.idempotencyRequired ?? false,
    reason,
  };
  const data = { decision, environment };
  if (call.idempotencyKey !== undefined) answerAndStore(state, call, print, data);
  else sendOk(call, data);
}
