// The Play controllers of the catalog, capability checks, connections, keys and /info.
import type { App, Handler } from './app.ts';
import { CAPABILITIES, CONNECTORS, capabilityView, type Decision, decide, PROVIDERS } from './catalog.ts';
import { ApiError, type Ctx, instant, ok, readJsonObject } from './http-kit.ts';
import type { Connection } from './store.ts';
import { uuidv7 } from './store.ts';
import { environment, onlyFields, text, textList } from './validate.ts';

const NEXT_STEP: Record<string, string> = {
  requested: 'The provider reviews the request; no action needed.',
  provisioning: 'Credentials are being exchanged with the provider; no action needed.',
  live: 'None: the connection is live.',
};

const view = (c: Connection): Record<string, unknown> => ({
  id: c.id,
  connectorId: c.connectorId,
  environment: c.environment,
  scopeLabel: c.scopeLabel,
  state: c.state,
  capabilities: c.capabilities.map((x) => ({ ...x })),
  nextStep: c.nextStep,
  createdAt: c.createdAt,
  stateChangedAt: c.stateChangedAt,
});

const tenantOf = (ctx: Ctx): string => ctx.tenant ?? '';

export const listProviders: Handler = (ctx) => {
  const category = ctx.query.get('category');
  const providers = PROVIDERS.filter((p) => category === null || p.category === category);
  ok(ctx, { count: providers.length, providers });
};

export const listConnectors: Handler = (ctx) => {
  const q = ctx.query;
  const connectors = CONNECTORS.filter(
    (c) =>
      (q.get('capability') === null || c.capabilities.includes(q.get('capability') ?? '')) &&
      (q.get('providerId') === null || c.providerId === q.get('providerId')) &&
      (q.get('category') === null || c.category === q.get('category')),
  );
  ok(ctx, { count: connectors.length, connectors });
};

export const listCapabilities: Handler = (ctx) => {
  ok(ctx, { count: CAPABILITIES.length, capabilities: CAPABILITIES.map(capabilityView) });
};

function connectorOf(id: string) {
  const connector = CONNECTORS.find((c) => c.id === id);
  if (!connector) throw new ApiError('not_found', 'connectorId: no connector with this id in the catalog.');
  return connector;
}

export const checkCapability: Handler = async (ctx) => {
  const body = await readJsonObject(ctx);
  const connectorId = text(body, 'connectorId', 2, 120);
  const capability = text(body, 'capability', 2, 120);
  const env = environment(body, 'environment', 'sandbox');
  const decision = decide(connectorOf(connectorId), capability, env);
  ok(ctx, { decision, environment: env });
};

export const listConnections: Handler = (ctx, app) => {
  const connections = app.store.connections.filter((c) => c.tenant === ctx.tenant).map(view);
  ok(ctx, { tenant: tenantOf(ctx), count: connections.length, connections });
};

export const getConnection: Handler = (ctx, app, params) => {
  const c = app.store.connections.find((x) => x.id === params.connectionId && x.tenant === ctx.tenant);
  if (!c) throw new ApiError('not_found', 'No connection with this id for this tenant.');
  ok(ctx, view(c));
};

/** Moves a connection to a state: one transaction writes the row, the Kafka record and the outbox rows. */
function transition(app: App, c: Connection, state: string, actor: string, requestId: string): void {
  const previousState = state === 'requested' ? null : c.state;
  c.state = state;
  c.nextStep = NEXT_STEP[state] ?? '';
  c.stateChangedAt = state === 'requested' ? c.createdAt : instant();
  const change = {
    tenant: c.tenant,
    connectionId: c.id,
    connectorId: c.connectorId,
    environment: c.environment,
    scopeLabel: c.scopeLabel,
    state,
    at: c.stateChangedAt,
  };
  app.stream.produce({ ...change, previousState });
  app.relay.enqueue(c.tenant, `connection.${state}`, { connection: view(c) });
  if (state !== 'requested') {
    app.audit.record(c.tenant, {
      actor,
      action: 'connection.state_changed',
      target: { type: 'connection', id: c.id },
      summary: { from: previousState, to: state },
      requestId,
    });
  }
}

export const createConnection: Handler = async (ctx, app) => {
  const key = ctx.idempotencyKey ?? '';
  const tenant = tenantOf(ctx);
  const body = await readJsonObject(ctx);
  onlyFields(body, ['connectorId', 'environment', 'scopeLabel', 'capabilities']);
  const connectorId = text(body, 'connectorId', 2, 120);
  const env = environment(body, 'environment');
  const scopeLabel = text(body, 'scopeLabel', 2, 120);
  const capabilities = textList(body, 'capabilities', [1, 24], [2, 120]);
  const fingerprint = app.idem.fingerprint('POST', '/connections', body);
  const found = app.idem.lookup(tenant, key, fingerprint);
  if (found.kind === 'conflict')
    throw new ApiError('idempotency_conflict', 'This key was first used with another body or operation.');
  if (found.kind === 'replay') {
    replay(ctx, found.data);
    return;
  }
  let decisions: Decision[];
  try {
    const connector = connectorOf(connectorId);
    decisions = capabilities.map((cap) => decide(connector, cap, env));
    const denied = decisions.findIndex((d) => !d.allowed);
    if (denied >= 0) {
      const reason = decisions[denied]?.reason.split(':')[0];
      throw new ApiError('capability_denied', `capabilities[${denied}]: ${reason} for this connector and environment.`);
    }
  } catch (err) {
    // Stripe-like option: a refusal decided after validation is the operation's outcome, stored under the key.
    if (err instanceof ApiError && app.store.options.replayRefusals)
      app.idem.save(tenant, key, fingerprint, { refusal: { code: err.code, detail: err.detail } });
    throw err;
  }
  const now = instant();
  const c: Connection = {
    id: uuidv7(),
    tenant,
    connectorId,
    environment: env,
    scopeLabel,
    state: 'requested',
    capabilities: decisions.map((d) => ({
      capability: d.capability,
      critical: d.critical,
      idempotencyRequired: d.idempotencyRequired,
    })),
    nextStep: NEXT_STEP.requested ?? '',
    createdAt: now,
    stateChangedAt: now,
  };
  app.store.connections.push(c);
  app.audit.record(tenant, {
    actor: ctx.clientId ?? '',
    action: 'connection.created',
    target: { type: 'connection', id: c.id },
    summary: { connectorId, environment: env, scopeLabel, capabilities },
    requestId: ctx.requestId,
    idempotencyKey: key,
  });
  transition(app, c, 'requested', ctx.clientId ?? '', ctx.requestId);
  const data = view(c);
  app.idem.save(tenant, key, fingerprint, data);
  // The provisioner moves the connection on by itself (a Kafka consumer in production).
  const step = app.store.options.activationMs;
  for (const [state, at] of [
    ['provisioning', step / 2],
    ['live', step],
  ] as const) {
    const timer = setTimeout(() => {
      app.timers.delete(timer);
      transition(app, c, state, 'tamarack-provisioner', `provisioner-${c.id}`);
    }, at);
    timer.unref();
    app.timers.add(timer);
  }
  ok(ctx, data);
};

function replay(ctx: Ctx, data: unknown): void {
  const refusal = (data as { refusal?: { code: string; detail?: string } }).refusal;
  if (!refusal) {
    ok(ctx, data, { replayed: true });
    return;
  }
  const err = new ApiError(refusal.code, refusal.detail);
  err.replayed = true;
  throw err;
}

export const issueKey: Handler = async (ctx, app) => {
  const body = await readJsonObject(ctx);
  const operation = text(body, 'operation', 2, 80);
  ok(ctx, app.idem.issue(tenantOf(ctx), operation));
};

export const info: Handler = (ctx, app) => {
  const client = app.store.clients.get(ctx.clientId ?? '');
  ok(ctx, {
    tenant: tenantOf(ctx),
    clientId: ctx.clientId,
    environment: 'sandbox',
    scopes: ctx.scopes,
    purpose: client?.purpose,
    owner: client?.owner,
    accessExpiresAt: client?.expiresAt,
    rateLimit: {
      limit: app.store.options.rateLimit,
      windowSeconds: app.store.options.windowMs / 1000,
      per: 'access, tenant and environment',
    },
  });
};
