// Connections: creation (pending, active after a short provisioning), the tenant's list, one by id, and the
// state actions pause / resume / revoke. Each change goes to the stream, the receivers and the audit chain.
import { randomUUID } from 'node:crypto';
import { appendAudit } from './audit.ts';
import { capabilityById, decide } from './catalog.ts';
import type { Answer, Ctx } from './http-kit.ts';
import { halt, isoUsec, ok } from './http-kit.ts';
import type { Connection, PineState } from './state.ts';
import type { Feeds } from './stream.ts';
import { Changeset } from './validate.ts';
import { dispatch } from './webhooks.ts';

const NEXT_STEP: Record<Connection['state'], string> = {
  pending: 'await_activation',
  active: 'none',
  paused: 'resume_connection',
  revoked: 'create_new_connection',
};

export function publicView(c: Connection) {
  const { tenant: _tenant, ...rest } = c;
  return structuredClone(rest);
}

function changed(state: PineState, feeds: Feeds, c: Connection, event: string, actor: string): void {
  const view = publicView(c);
  appendAudit(state, c.tenant, actor, event, { type: 'connection', id: c.id });
  feeds.publish(event, view, c.tenant);
  dispatch(state, c.tenant, event, { connection: view });
}

function move(
  state: PineState,
  feeds: Feeds,
  c: Connection,
  to: Connection['state'],
  event: string,
  actor: string,
): void {
  c.state = to;
  c.nextStep = NEXT_STEP[to];
  c.updatedAt = isoUsec(Date.now());
  changed(state, feeds, c, event, actor);
}

export function createConnection(ctx: Ctx, state: PineState, feeds: Feeds): Answer {
  const cs = new Changeset(ctx.body);
  const connectorId = cs.text('connectorId', 2, 120);
  const environment = cs.environment('environment', true);
  const scopeLabel = cs.text('scopeLabel', 2, 120);
  const capabilities = cs.textList('capabilities', 1, 24, 2, 120);
  cs.check();
  const env = environment ?? 'sandbox';
  const booked = (capabilities ?? []).map((capability) => {
    const d = decide(connectorId ?? '', capability, env);
    if (!d.allowed) {
      halt(
        'capability_denied',
        'A capability is not released for this connection',
        `capabilities: ${d.reason.split(' ')[0]}`,
        'Have the capability released.',
      );
    }
    const cap = capabilityById(capability);
    return { capability, critical: cap?.critical ?? false, idempotencyRequired: cap?.idempotencyRequired ?? false };
  });
  const now = isoUsec(Date.now());
  const c: Connection = {
    id: randomUUID(),
    tenant: ctx.tenant ?? '',
    connectorId: connectorId ?? '',
    environment: env,
    scopeLabel: scopeLabel ?? '',
    state: 'pending',
    capabilities: booked,
    nextStep: NEXT_STEP.pending,
    createdAt: now,
    updatedAt: now,
  };
  state.connections.push(c);
  const actor = ctx.clientId ?? '';
  changed(state, feeds, c, 'connection.created', actor);
  state.later(state.options.activationMs, () => {
    if (c.state === 'pending') move(state, feeds, c, 'active', 'connection.activated', 'system');
  });
  return ok(publicView(c));
}

export function listConnections(ctx: Ctx, state: PineState): Answer {
  const connections = state.connections.filter((c) => c.tenant === ctx.tenant).map(publicView);
  return ok({ tenant: ctx.tenant, count: connections.length, connections, next: null });
}

function own(ctx: Ctx, state: PineState): Connection {
  const c = state.connections.find((x) => x.id === ctx.params.id && x.tenant === ctx.tenant);
  if (c === undefined)
    halt(
      'not_found',
      'No connection with this id',
      'id: unknown for this tenant',
      'Compare identifier and tenant header.',
    );
  return c;
}

export function showConnection(ctx: Ctx, state: PineState): Answer {
  return ok(publicView(own(ctx, state)));
}

const ACTIONS: Record<string, { from: Connection['state'][]; to: Connection['state']; event: string }> = {
  pause: { from: ['active'], to: 'paused', event: 'connection.paused' },
  resume: { from: ['paused'], to: 'active', event: 'connection.activated' },
  revoke: { from: ['pending', 'active', 'paused'], to: 'revoked', event: 'connection.revoked' },
};

/** POST /connections/{id}/{pause|resume|revoke}: a transition not allowed from the current state is unsuitable (400). */
export function connectionAction(ctx: Ctx, state: PineState, feeds: Feeds): Answer {
  const c = own(ctx, state);
  const action = ACTIONS[ctx.params.action ?? ''];
  if (action === undefined) halt('not_found', 'No such action', 'action: pause, resume or revoke');
  if (!action.from.includes(c.state)) {
    halt('invalid_request', `The connection is ${c.state}`, `state: ${action.from.join(' or ')} required`);
  }
  move(state, feeds, c, action.to, action.event, ctx.clientId ?? '');
  return ok(publicView(c));
}
