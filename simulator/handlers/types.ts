import type { RequestContext } from '../core/context.ts';
import type { PlainResponse } from '../core/types.ts';
import type { OpenApiDocuments } from './openapi-documents.ts';
import type { AuditLog } from '../audit/hash-chain.ts';
import type { FeedStore } from '../events/feed.ts';
import type { CatalogStore } from '../state/catalog-store.ts';
import type { ClientRegistry } from '../state/clients.ts';
import type { ConnectionsStore } from '../state/connections-store.ts';
import type { EventBus } from '../state/domain-events.ts';
import type { IdempotencyStore } from '../state/idempotency-store.ts';
import type { WebhookReceiverStore } from '../state/webhook-receivers.ts';
import type { Dispatcher } from '../webhooks/dispatcher.ts';
import type { SseSourceOptions } from '../events/sse-source.ts';
import type { StreamGate } from '../events/stream-limits.ts';

/** The stores the public handlers read and write (a subset of the sandbox state). */
export interface HandlerStores {
  catalog: CatalogStore;
  connections: ConnectionsStore;
  idempotency: IdempotencyStore;
  clients: ClientRegistry;
  tenants: ReadonlyMap<string, { id: string; name: string }>;
  feeds: FeedStore;
  receivers: WebhookReceiverStore;
  events: EventBus;
  dispatcher: Dispatcher;
  audit: AuditLog;
}

/** What a handler can reach besides its request. */
export interface HandlerDeps {
  state: HandlerStores;
  documents: OpenApiDocuments;
  /** Open SSE streams and their limits. */
  streams: StreamGate;
  /** Pacing of SSE streams (retry hint, heartbeat, slow-consumer bounds). */
  streamOptions: Omit<SseSourceOptions, 'cursor' | 'onEnd'>;
  /** Name of the webhook signature header. */
  signatureHeader: string;
  /** Hosts webhook receivers may point at. */
  webhookHosts: readonly string[];
}

export type Handler = (ctx: RequestContext, deps: HandlerDeps) => PlainResponse | Promise<PlainResponse>;
/** Handlers by route id (operationId); the core refuses to start when a route has none. */
export type HandlerMap = Record<string, Handler>;
