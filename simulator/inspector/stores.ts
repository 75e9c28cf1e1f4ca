import type { Clock } from '../lib/clock.ts';
import type { AuditService } from '../services/audit-service.ts';
import type { ConnectionService } from '../services/connection-service.ts';
import type { FeedService } from '../services/feed-service.ts';
import type { EventBus } from '../state/domain-events.ts';
import type { FaultService } from '../services/fault-service.ts';
import type { IdempotencyPort } from '../services/idempotency-service.ts';
import type { RateLimitPort } from '../services/rate-limit-service.ts';
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
  faults: FaultService;
  feeds: FeedService;
  audit: AuditService;
  rateLimits: RateLimitPort;
}
