import type { Clock } from '../lib/clock.ts';
import type { AuditService } from '../services/audit-service.ts';
import type { ConnectionService } from '../services/connection-service.ts';
import type { FeedService } from '../services/feed-service.ts';
import type { EventBus } from '../state/domain-events.ts';
import type { FaultStore } from '../state/fault-store.ts';
import type { IdempotencyPort } from '../state/idempotency-store.ts';
import type { RateLimitPort } from '../state/rate-limit-store.ts';
import type { ReceiverService } from '../services/receiver-service.ts';
import type { Dispatcher } from '../webhooks/dispatcher.ts';

/** The stores the inspector reads (and, for rate limit and redelivery, changes); the sandbox state satisfies it. */
export interface InspectorStores {
  environment: string;
  clock: Clock;
  events: EventBus;
  tenants: ReadonlyMap<string, { id: string; name: string }>;
  connections: ConnectionService;
  idempotency: IdempotencyPort;
  receivers: ReceiverService;
  dispatcher: Dispatcher;
  faults: FaultStore;
  feeds: FeedService;
  audit: AuditService;
  rateLimits: RateLimitPort;
}
