// Routes of the catalog, the capability check, the public routes (self-description, info) and the stream.

import { BASE, type RestRoute } from './camel-context.ts';
import { CAPABILITIES, CONNECTORS, capability, connector, PROVIDERS } from './catalog.ts';
import { CamelRouteException, CURRENT_VERSION, isoNow } from './exchange.ts';
import { PUBLIC_PARTITION } from './kafka.ts';
import { REALM_PATH } from './keycloak.ts';
import { environment, integer, object, text } from './validate.ts';

type Builder = ReturnType<typeof import('./camel-context.ts').rest>;

export function catalogRoutes(r: Builder, all: () => RestRoute[]): void {
  r.get('', 'self-description', { auth: false }).to('direct:describe', (ex, ctx) => {
    const origin = `http://${ex.req.headers.host ?? '127.0.0.1'}`;
    return {
      service: 'network-connections-service',
      surface: 'public',
      version: ex.version,
      authentication: {
        type: 'oauth2',
        flow: 'client_credentials',
        tokenUrl: `${origin}${REALM_PATH}/token`,
        jwksUri: `${origin}${REALM_PATH}/certs`,
        tokenFormat: 'JWT (RS256)',
        tenantHeader: 'x-service-tenant',
      },
      idempotency: {
        header: 'Idempotency-Key',
        pattern: '^[A-Za-z0-9._:-]{8,128}$',
        requiredOn: all()
          .filter((x) => x.key === 'required')
          .map((x) => `${x.method} ${x.path}`),
        generate: `POST ${BASE}/idempotency-keys`,
      },
      environment: ctx.environment,
      documents: {
        openapi: `${BASE}/openapi.json`,
        files: ['2026-07-01', '2026-06-12'].flatMap((v) => [
          `${BASE}/api-doc/${v}/openapi.json`,
          `${BASE}/api-doc/${v}/openapi.yaml`,
        ]),
      },
      webhooks: { signatureHeader: 'Kauri-Signature', deliveryIdHeader: 'Kauri-Delivery-Id' },
      routes: all().map((x) => ({ method: x.method, path: x.path, purpose: x.purpose, auth: x.auth })),
    };
  });
  r.get('/info', 'service information', { auth: false }).to('direct:info', (ex, ctx) => ({
    service: 'network-connections-service',
    implementation: 'kauri (Camel REST DSL style)',
    version: ex.version,
    currentVersion: CURRENT_VERSION,
    environment: ctx.environment,
    serverTime: isoNow(),
  }));
  r.get('/providers', 'list providers').to('direct:listProviders', (ex) => {
    const category = ex.query.get('category');
    const providers = PROVIDERS.filter((p) => !category || p.category === category);
    return { count: providers.length, providers };
  });
  r.get('/connectors', 'list connectors').to('direct:listConnectors', (ex) => {
    const cap = ex.query.get('capability');
    const prov = ex.query.get('providerId');
    const cat = ex.query.get('category');
    const connectors = CONNECTORS.filter(
      (c) => (!cap || c.capabilities.includes(cap)) && (!prov || c.providerId === prov) && (!cat || c.category === cat),
    );
    return { count: connectors.length, connectors };
  });
  r.get('/capabilities', 'capability catalog').to('direct:listCapabilities', () => ({
    count: CAPABILITIES.length,
    capabilities: CAPABILITIES,
  }));
  r.post('/capabilities', 'check a capability of a connector', { key: 'optional' }).to(
    'direct:checkCapability',
    (ex) => {
      const body = object(ex.body);
      const connectorId = text(body, 'connectorId', 2, 120);
      const cap = text(body, 'capability', 2, 120);
      const env = environment(body, 'sandbox');
      const c = connector(connectorId);
      if (!c) throw new CamelRouteException('not_found', 'Unknown connector', connectorId);
      const known = capability(cap);
      const offered = c.capabilities.includes(cap);
      const reason = !known
        ? 'capability is not in the catalog'
        : offered
          ? `offered by ${c.id} in ${env}`
          : `not offered by ${c.id}`;
      return {
        decision: {
          connectorId: c.id,
          capability: cap,
          allowed: Boolean(known && offered),
          critical: known?.critical ?? false,
          idempotencyRequired: known?.idempotencyRequired ?? false,
          reason,
        },
        environment: env,
      };
    },
  );
  r.get('/stream', 'status stream (Server-Sent Events)', { auth: false }).to('direct:stream', (ex, ctx) => {
    const lastId = ex.req.headers['last-event-id'];
    const cursor = ex.query.get('cursor');
    const raw = typeof lastId === 'string' && lastId.trim() !== '' ? lastId.trim() : (cursor ?? undefined);
    const after = integer(raw, 'cursor / Last-Event-ID', 0, Number.MAX_SAFE_INTEGER);
    const who = ctx.realm.verify(ex.req.headers.authorization);
    const tenant = ex.req.headers['x-service-tenant'];
    const key = who && typeof tenant === 'string' && who.tenants.includes(tenant) ? tenant : PUBLIC_PARTITION;
    ctx.kafka.consume(ex.res, key, after, { breadcrumbId: ex.breadcrumbId, 'service-version': ex.version });
    return undefined;
  });
}
