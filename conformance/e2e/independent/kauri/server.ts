// Composition root of kauri: the CamelContext (realm, limiter, idempotent repository, Kafka topic, webhook
// producer, audit chain), the REST DSL routes, and two loopback listeners sharing that one context.
import { randomBytes } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { AuditLog } from './audit.ts';
import { type CamelContext, dispatch, type RestRoute, rest } from './camel-context.ts';
import { setZoneOffset } from './exchange.ts';
import { JdbcIdempotentRepository } from './idempotent-repository.ts';
import { KafkaTopic } from './kafka.ts';
import { KeycloakRealm, REALM_PATH } from './keycloak.ts';
import { openapiRoutes } from './openapi.ts';
import { RateLimiterRegistry } from './resilience.ts';
import { catalogRoutes } from './routes-catalog.ts';
import { connectionRoutes } from './routes-connections.ts';
import { webhookRoutes } from './routes-webhooks.ts';
import { WebhookRoutes } from './webhooks.ts';

export interface KauriOptions {
  /** Resilience4j limitForPeriod per (client, tenant, environment). */
  limitForPeriod?: number;
  /** Resilience4j limitRefreshPeriod in ms. */
  limitRefreshPeriodMs?: number;
  /** Access token lifetime (Keycloak's access.token.lifespan). */
  tokenTtlSeconds?: number;
  /** First offset of every partition. */
  firstOffset?: number;
  /** Offset of the ISO times in minutes (0: +00:00; 780: +13:00, NZDT). */
  zoneOffsetMinutes?: number;
  /** An unknown Service-Version: `reject` (400) or `current` (served as 2026-07-01). */
  unknownVersion?: 'reject' | 'current';
  /** Lifecycle PENDING -> ACTIVE after this many ms; 0: created ACTIVE. */
  transitionMs?: number;
  /** How long an idempotency key (used or issued) stays valid. */
  idempotencyRetentionMs?: number;
  maximumRedeliveries?: number;
  redeliveryDelayMs?: number;
  backOffMultiplier?: number;
}

const DEFAULTS: Required<KauriOptions> = {
  limitForPeriod: 1000,
  limitRefreshPeriodMs: 30_000,
  tokenTtlSeconds: 300,
  firstOffset: 1,
  zoneOffsetMinutes: 0,
  unknownVersion: 'reject',
  transitionMs: 0,
  idempotencyRetentionMs: 24 * 3600_000,
  maximumRedeliveries: 3,
  redeliveryDelayMs: 500,
  backOffMultiplier: 2,
};

export interface KauriHandle {
  baseUrl: string;
  altBaseUrl: string;
  tenant: string;
  otherTenant: string;
  foreignTenant: string;
  clientId: string;
  clientSecret: string;
  tokenUrl: string;
  close(): Promise<void>;
}

function listen(s: Server): Promise<number> {
  return new Promise((resolve) => s.listen(0, '127.0.0.1', () => resolve((s.address() as AddressInfo).port)));
}

export async function startKauri(options: KauriOptions = {}): Promise<KauriHandle> {
  const o: Required<KauriOptions> = { ...DEFAULTS };
  for (const [k, v] of Object.entries(options)) if (v !== undefined) (o as Record<string, unknown>)[k] = v;
  setZoneOffset(o.zoneOffsetMinutes);
  const tenant = 'aroha-kitchens-akl';
  const otherTenant = 'aroha-kitchens-wlg';
  const foreignTenant = 'kahu-hospitality';
  const clientId = `kauri-integration-${randomBytes(3).toString('hex')}`;
  const clientSecret = randomBytes(24).toString('base64url');
  const realm = new KeycloakRealm(
    { clientId, clientSecret, tenants: [tenant, otherTenant] },
    [tenant, otherTenant, foreignTenant],
    o.tokenTtlSeconds,
  );
  const ctx: CamelContext = {
    realm,
    limiter: new RateLimiterRegistry({
      limitForPeriod: o.limitForPeriod,
      limitRefreshPeriodMs: o.limitRefreshPeriodMs,
    }),
    repo: new JdbcIdempotentRepository(o.idempotencyRetentionMs),
    kafka: new KafkaTopic(o.firstOffset),
    webhooks: new WebhookRoutes({
      maximumRedeliveries: o.maximumRedeliveries,
      redeliveryDelayMs: o.redeliveryDelayMs,
      backOffMultiplier: o.backOffMultiplier,
    }),
    audit: new AuditLog(),
    connections: [],
    environment: 'sandbox',
    unknownVersion: o.unknownVersion,
    transitionMs: o.transitionMs,
    timers: new Set(),
  };
  const builder = rest();
  const all = (): RestRoute[] => builder.routes;
  catalogRoutes(builder, all);
  openapiRoutes(builder, all);
  connectionRoutes(builder);
  webhookRoutes(builder);
  const servers = [0, 1].map(() => createServer((req, res) => void dispatch(ctx, builder.routes, req, res)));
  const [port, altPort] = await Promise.all(servers.map(listen));
  realm.issuer = `http://127.0.0.1:${port}/realms/kauri`;
  return {
    baseUrl: `http://127.0.0.1:${port}`,
    altBaseUrl: `http://127.0.0.1:${altPort}`,
    tenant,
    otherTenant,
    foreignTenant,
    clientId,
    clientSecret,
    tokenUrl: `http://127.0.0.1:${port}${REALM_PATH}/token`,
    async close() {
      ctx.kafka.close();
      ctx.webhooks.close();
      for (const t of ctx.timers) clearTimeout(t);
      await Promise.all(
        servers.map(
          (s) =>
            new Promise<void>((resolve) => {
              s.close(() => resolve());
              s.closeAllConnections();
            }),
        ),
      );
    },
  };
}
