// Handlers of the interface's endpoints (catalog, capability checks, connections, keys, info, audit log).
import { randomBytes } from 'node:crypto';
import { record } from './audit.ts';
import {
  CAPABILITIES,
  CONNECTORS,
  capability,
  capabilityList,
  decide,
  environment,
  PROVIDERS,
  str,
} from './catalog.ts';
import { VALIDITY_MS } from './idempotency.ts';
import type { Connection, State } from './state.ts';
import { later } from './state.ts';
import { publish } from './stream.ts';
import { ApiError, base36Id, type Ctx, isoNanos } from './util.ts';
import { fanOut } from './webhooks.ts';

export interface Call {
  state: State;
  ctx: Ctx;
  clientId: string;
  tenant: string;
  body: Record<string, unknown>;
  params: string[];
}

export function listProviders({ ctx }: Call): unknown {
  const cat = ctx.url.searchParams.get('category');
  const providers = PROVIDERS.filter((p) => cat === null || p.category === cat);
  return { count: providers.length, providers };
}

export function listConnectors({ ctx }: Call): unknown {
  const q = ctx.url.searchParams;
  const cap = q.get('capability');
  const pid = q.get('providerId');
  const cat = q.get('category');
  const connectors = CONNECTORS.filter(
    (c) =>
      (cap === null || c.capabilities.includes(cap)) &&
      (pid === null || c.providerId === pid) &&
      (cat === null || c.category === cat),
  );
  return { count: connectors.length, connectors };
}

export function listCapabilities(): unknown {
  return { count: CAPABILITIES.length, capabilities: CAPABILITIES };
}

export function checkCapability({ body }: Call): unknown {
  const connectorId = str(body, 'connectorId', 2, 120) ?? '';
  const cap = str(body, 'capability', 2, 120) ?? '';
  const env = environment(body, false) ?? 'sandbox';
  return { decision: decide(connectorId, cap), environment: env };
}

export function listConnections({ state, tenant }: Call): unknown {
  const connections = state.connections.get(tenant) ?? [];
  return { tenant, count: connections.length, connections };
}

export function createConnection({ state, ctx, clientId, tenant, body }: Call): unknown {
  const connectorId = str(body, 'connectorId', 2, 120) ?? '';
  const env = environment(body, true) ?? 'sandbox';
  const scopeLabel = str(body, 'scopeLabel', 2, 120) ?? '';
  // A repeated entry books the capability once (the interface sets no uniqueness rule: not refused).
  const caps = [...new Set(capabilityList(body))];
  for (const c of caps) {
    if (!decide(connectorId, c).allowed) {
      throw new ApiError(
        'capability_denied',
        `Capability ${c} is not released for connector ${connectorId}.`,
        'CAPABILITY_NOT_BOOKED',
        'Have the capability released.',
      );
    }
  }
  const now = isoNanos();
  const conn: Connection = {
    id: base36Id('c'),
    connectorId,
    environment: env,
    scopeLabel,
    state: 'CREATING',
    capabilities: caps.map((c) => ({
      capability: c,
      critical: capability(c)?.critical ?? false,
      idempotencyRequired: capability(c)?.idempotencyRequired ?? false,
    })),
    nextStep: 'AWAIT_ACTIVATION',
    createdAt: now,
    updateTime: now,
  };
  const list = state.connections.get(tenant) ?? [];
  list.push(conn);
  state.connections.set(tenant, list);
  record(state, tenant, clientId, 'connections.create', `connections/${conn.id}`, ctx.requestId);
  const snapshot = structuredClone(conn);
  emit(state, tenant, 'connection.created', conn);
  later(state, state.opts.activationMs, () => {
    conn.state = 'ACTIVE';
    conn.nextStep = 'NONE';
    conn.updateTime = isoNanos();
    emit(state, tenant, 'connection.activated', conn);
  });
  return snapshot;
}

function emit(state: State, tenant: string, type: string, c: Connection): void {
  const data = {
    connectionId: c.id,
    connectorId: c.connectorId,
    environment: c.environment,
    state: c.state,
    time: isoNanos(),
  };
  const e = publish(state, type, data);
  fanOut(state, tenant, type, `e-${e.seq}`, data);
}

export function issueKey({ state, body }: Call): unknown {
  const operation = str(body, 'operation', 2, 80) ?? '';
  const key = `ik:${randomBytes(18)
    .toString('base64url')
    .replace(/[^A-Za-z0-9]/g, 'x')}`;
  const issuedMs = Date.now();
  state.issued.set(key, issuedMs);
  return {
    idempotencyKey: key,
    operation,
    expiresAt: new Date(issuedMs + VALIDITY_MS).toISOString().replace(/Z$/, '000000Z'),
  };
}

export function info({ state, ctx, clientId, tenant }: Call): unknown {
  const m = /^Bearer\s+(\S+)$/i.exec(ctx.req.headers.authorization ?? '');
  const t = m?.[1] ? state.tokens.get(m[1]) : undefined;
  return {
    service: 'quince',
    tenant,
    clientId,
    environment: 'sandbox',
    region: 'europe-west3',
    tokenExpiresAt: t ? new Date(t.expires).toISOString().replace(/Z$/, '000000Z') : null,
  };
}
