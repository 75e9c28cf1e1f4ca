// The authenticated endpoints. Each modifying call reads its key, checks its body with lenses, then looks
// up a replay before it changes anything; the change, its audit entry, stream message and outbox rows are
// written in one synchronous step (no await between), so concurrent duplicates cannot both create.
import { randomUUID } from 'node:crypto';
import { CAPABILITIES, capability, connector, filterConnectors, filterProviders } from './catalog.ts';
import { type Call, type Domain, keyed, onlyFields } from './domain.ts';
import { environmentLens, ok, Refusal, readJsonObject, textLens, textListLens } from './http-kit.ts';
import { routeWebhooks } from './webhook-routes.ts';

function createConnection(d: Domain, c: Call, raw: Record<string, unknown>, key: string | undefined) {
  const body = onlyFields(d, raw, ['connectorId', 'environment', 'scopeLabel', 'capabilities']);
  const connectorId = textLens(body, 'connectorId', 2, 120);
  const environment = environmentLens(body, 'environment');
  const scopeLabel = textLens(body, 'scopeLabel', 2, 120);
  const caps = textListLens(body, 'capabilities', 1, 24);
  const cnc = connector(connectorId);
  if (!cnc) throw new Refusal('not_found', 'connector not found', `connectorId: ${connectorId}`);
  for (const cap of caps) {
    if (!cnc.capabilities.includes(cap)) {
      throw new Refusal('capability_denied', 'capability is not released for this connector', `capability: ${cap}`);
    }
  }
  const conn: Record<string, unknown> = {
    id: d.numericIds ? d.nextId() : randomUUID(),
    connectorId,
    environment,
    scopeLabel,
    state: 'requested',
    capabilities: [...new Set(caps)].map((id) => {
      const cap = capability(id);
      return {
        capability: id,
        critical: cap?.critical ?? false,
        idempotencyRequired: cap?.idempotencyRequired ?? true,
      };
    }),
    nextStep: 'await_activation',
    createdAt: new Date().toISOString(),
  };
  const list = d.connections.get(c.tenant) ?? [];
  d.connections.set(c.tenant, list);
  list.push(conn);
  d.audit.append(c.tenant, {
    action: 'connection.create',
    resourceType: 'connection',
    resourceId: String(conn.id),
    clientId: c.clientId,
    idempotencyKey: key,
  });
  const note = { connectionId: conn.id, state: 'requested', at: conn.createdAt };
  d.stream.publish('connection.requested', note);
  d.outbox.emit(c.tenant, 'connection.requested', { connection: conn });
  const timer = setTimeout(() => {
    d.timers.delete(timer);
    conn.state = 'active';
    conn.nextStep = 'none';
    d.audit.append(c.tenant, {
      action: 'connection.activate',
      resourceType: 'connection',
      resourceId: String(conn.id),
      clientId: 'sequoia-system',
    });
    d.stream.publish('connection.active', { connectionId: conn.id, state: 'active', at: new Date().toISOString() });
    d.outbox.emit(c.tenant, 'connection.active', { connection: { ...conn } });
  }, d.activationMs);
  d.timers.add(timer);
  // The stored answer is a snapshot: a replay shows the connection as it was created.
  return structuredClone(conn);
}

function checkCapability(d: Domain, raw: Record<string, unknown>) {
  const body = onlyFields(d, raw, ['connectorId', 'capability', 'environment']);
  const connectorId = textLens(body, 'connectorId', 2, 120);
  const capId = textLens(body, 'capability', 2, 120);
  const environment = environmentLens(body, 'environment', 'sandbox');
  const cnc = connector(connectorId);
  if (!cnc) throw new Refusal('not_found', 'connector not found', `connectorId: ${connectorId}`);
  const cap = capability(capId);
  const allowed = cnc.capabilities.includes(capId);
  const reason = allowed ? 'offered by the connector' : cap ? 'not offered by this connector' : 'unknown capability';
  return {
    decision: {
      connectorId,
      capability: capId,
      allowed,
      critical: cap?.critical ?? false,
      idempotencyRequired: cap?.idempotencyRequired ?? true,
      reason,
    },
    environment,
  };
}

function intParam(q: URLSearchParams, name: string, min: number, max: number, fallback: number): number {
  const raw = q.get(name);
  if (raw === null) return fallback;
  if (!/^\d{1,9}$/.test(raw) || Number(raw) < min || Number(raw) > max) {
    throw new Refusal('invalid_request', `Lens failed: ${name}`, `${name}: integer ${min} to ${max}`);
  }
  return Number(raw);
}

/** Routes one authenticated call; returns false when no route matches. */
export async function routeApi(d: Domain, c: Call, method: string, path: string): Promise<boolean> {
  const q = c.ex.url.searchParams;
  if (method === 'GET' && path === '/providers') {
    const providers = filterProviders(q);
    ok(c.ex, { count: providers.length, providers });
  } else if (method === 'GET' && path === '/connectors') {
    const connectors = filterConnectors(q);
    ok(c.ex, { count: connectors.length, connectors });
  } else if (method === 'GET' && path === '/capabilities') {
    ok(c.ex, { count: CAPABILITIES.length, capabilities: CAPABILITIES });
  } else if (method === 'POST' && path === '/capabilities') {
    ok(c.ex, checkCapability(d, await readJsonObject(c.ex.req)));
  } else if (method === 'GET' && path === '/connections') {
    const connections = d.connections.get(c.tenant) ?? [];
    ok(c.ex, { tenant: c.tenant, count: connections.length, connections });
  } else if (method === 'POST' && path === '/connections') {
    await keyed(d, c, true, (b, k) => createConnection(d, c, b, k));
  } else if (method === 'POST' && path === '/idempotency-keys') {
    await keyed(d, c, false, (b) =>
      d.idempotency.generate(textLens(onlyFields(d, b, ['operation']), 'operation', 2, 80)),
    );
  } else if (method === 'GET' && path === '/audit-log') {
    const limit = intParam(q, 'limit', 1, 500, 50);
    if (d.auditOldestFirst) {
      const after = intParam(q, 'after', 0, 999_999_999, 0);
      const page = d.audit.pageOldestFirst(c.tenant, limit, after);
      if (page.nextAfter !== null)
        c.ex.headers.Link = `<${c.ex.url.pathname}?limit=${limit}&after=${page.nextAfter}>; rel="next"`;
      ok(c.ex, page);
    } else {
      const cursor = q.has('cursor') ? intParam(q, 'cursor', 1, 999_999_999, 1) : undefined;
      ok(c.ex, d.audit.page(c.tenant, limit, cursor));
    }
  } else if (method === 'GET' && path === '/info') {
    ok(c.ex, {
      tenant: c.tenant,
      clientId: c.clientId,
      environment: 'sandbox',
      purpose: 'conformance',
      owner: 'sequoia platform team',
      tokenExpiresAt: new Date(c.tokenExpiresAt).toISOString(),
    });
  } else return routeWebhooks(d, c, method, path);
  return true;
}
