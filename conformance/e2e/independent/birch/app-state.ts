// The shared state of one birch deployment (both listeners serve the same state).
import { AuditLog } from './audit.ts';
import { AuthServer } from './auth.ts';
import { Connections } from './connections.ts';
import { EventBus } from './events.ts';
import { IdempotencyStore } from './idempotency.ts';
import { RateLimiter, type RateLimitOptions } from './rate-limit.ts';
import { buildRoutes, type Route } from './routes.ts';
import { Webhooks } from './webhooks.ts';

// Choices birch can be started with, to see how the kit treats other legal answers to "not shown".
export type BirchVariant = {
  serviceVersionRequired: boolean; // a missing Service-Version answers 400 invalid_request
  creationEvent: string; // event name of a connection creation (stream and webhooks)
  deliverySegment: string; // /webhooks/{id}/<segment> is the delivery log
  missingTenantStatus: 400 | 403; // 400 invalid_request or 403 forbidden for a call without x-service-tenant
  tokenTtlSeconds: number;
};
export const DEFAULT_VARIANT: BirchVariant = {
  serviceVersionRequired: false,
  creationEvent: 'connection.created',
  deliverySegment: 'deliveries',
  missingTenantStatus: 400,
  tokenTtlSeconds: 900,
};

export type BirchState = {
  variant: BirchVariant;
  routes: Route[];
  auth: AuthServer;
  bus: EventBus;
  connections: Connections;
  idempotency: IdempotencyStore;
  limiter: RateLimiter;
  audit: AuditLog;
  webhooks: Webhooks;
  openStreams: Set<() => void>;
  // tenants known to birch; a known tenant not released for the client is 403 forbidden
  tenants: string[];
};

export function createState(rateLimit: RateLimitOptions, variant: BirchVariant = DEFAULT_VARIANT): BirchState {
  const bus = new EventBus();
  const webhooks = new Webhooks(variant.creationEvent);
  bus.subscribe((e) => webhooks.onEvent(e));
  return {
    variant,
    routes: buildRoutes(variant),
    auth: new AuthServer(variant.tokenTtlSeconds),
    bus,
    connections: new Connections(bus, variant.creationEvent),
    idempotency: new IdempotencyStore(),
    limiter: new RateLimiter(rateLimit),
    audit: new AuditLog(),
    webhooks,
    openStreams: new Set(),
    tenants: ['acme-bistro', 'harbor-kitchen', 'closed-diner'],
  };
}
