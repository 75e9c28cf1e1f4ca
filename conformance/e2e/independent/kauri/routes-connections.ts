// Routes of connections (create, list, read), idempotency keys and the audit log. A creation is produced to the
// Kafka topic, fanned out to webhooks and written to the audit chain; an optional lifecycle (transitionMs > 0)
// moves PENDING -> ACTIVE later, produced as connection.state-changed.
import { randomUUID } from 'node:crypto';
import type { CamelContext, Connection } from './camel-context.ts';
import { capability, connector } from './catalog.ts';
import { CamelRouteException, type Exchange, isoNow } from './exchange.ts';
import { environment, integer, object, strings, text } from './validate.ts';

type Builder = ReturnType<typeof import('./camel-context.ts').rest>;

const view = ({ tenant: _t, ...c }: Connection) => c;

function activate(ctx: CamelContext, conn: Connection): void {
  const timer = setTimeout(() => {
    ctx.timers.delete(timer);
    conn.state = 'ACTIVE';
    conn.nextStep = 'none: the route is started';
    conn.updatedAt = isoNow();
    ctx.kafka.produce(conn.tenant, 'connection.state-changed', {
      connectionId: conn.id,
      state: conn.state,
      connection: view(conn),
    });
    ctx.webhooks.publish(conn.tenant, 'connection.state-changed', view(conn));
  }, ctx.transitionMs);
  ctx.timers.add(timer);
}

function create(ex: Exchange, ctx: CamelContext) {
  const body = object(ex.body);
  const connectorId = text(body, 'connectorId', 2, 120);
  const env = environment(body);
  const scopeLabel = text(body, 'scopeLabel', 2, 120);
  const caps = strings(body, 'capabilities', 1, 24, 2, 120);
  const c = connector(connectorId);
  if (!c) throw new CamelRouteException('not_found', 'Unknown connector', connectorId);
  for (const cap of caps) {
    if (!capability(cap)) throw new CamelRouteException('invalid_request', 'Unknown capability', cap);
    if (!c.capabilities.includes(cap))
      throw new CamelRouteException(
        'capability_denied',
        'The capability is not released for this connection',
        `${cap} is not offered by ${c.id}`,
        'have the capability released',
      );
  }
  const now = isoNow();
  const lifecycle = ctx.transitionMs > 0;
  const conn: Connection = {
    id: `conn-${randomUUID()}`,
    tenant: ex.tenant as string,
    connectorId: c.id,
    environment: env,
    scopeLabel,
    state: lifecycle ? 'PENDING' : 'ACTIVE',
    capabilities: [...new Set(caps)].map((id) => {
      const k = capability(id);
      return { capability: id, critical: k?.critical ?? false, idempotencyRequired: k?.idempotencyRequired ?? false };
    }),
    nextStep: lifecycle ? 'await activation by the provider (direct:activate)' : 'none: the route is started',
    createdAt: now,
    updatedAt: now,
  };
  ctx.connections.push(conn);
  ctx.audit.append(conn.tenant, ex.id, ex.clientId as string, 'connection.created', conn.id);
  ctx.kafka.produce(conn.tenant, 'connection.created', {
    connectionId: conn.id,
    state: conn.state,
    connection: view(conn),
  });
  ctx.webhooks.publish(conn.tenant, 'connection.created', view(conn));
  if (lifecycle) activate(ctx, conn);
  return view(conn);
}

export function connectionRoutes(r: Builder): void {
  r.get('/connections', 'connections of the tenant').to('direct:listConnections', (ex, ctx) => {
    const connections = ctx.connections.filter((c) => c.tenant === ex.tenant).map(view);
    return { tenant: ex.tenant, count: connections.length, connections };
  });
  r.post('/connections', 'create a connection', { key: 'required' }).to('direct:createConnection', create);
  r.get('/connections/{connectionId}', 'one connection of the tenant').to('direct:getConnection', (ex, ctx) => {
    const c = ctx.connections.find((x) => x.id === ex.params.connectionId && x.tenant === ex.tenant);
    if (!c) throw new CamelRouteException('not_found', 'No such connection for this tenant');
    return view(c);
  });
  r.post('/idempotency-keys', 'generate an idempotency key', { key: 'optional' }).to('direct:issueKey', (ex, ctx) => {
    const operation = text(object(ex.body), 'operation', 2, 80);
    const idempotencyKey = `kauri:${randomUUID()}`;
    ctx.repo.purgeExpired();
    const expiresAt = ctx.repo.issue(idempotencyKey, operation);
    return { idempotencyKey, operation, expiresAt: isoNow(expiresAt) };
  });
  r.get('/audit-log', 'audit log with a hash chain and a signed daily root').to('direct:audit', (ex, ctx) => {
    const limit = integer(ex.query.get('limit'), 'limit', 1, 500, 50) as number;
    return ctx.audit.page(ex.tenant as string, limit);
  });
}
