import type { AuditLog } from '../audit/hash-chain.ts';
import type { RequestContext } from '../core/context.ts';
import type { PlainResponse } from '../core/types.ts';
import type { FeedStore } from '../events/feed.ts';
import type { SseSourceOptions } from '../events/sse-source.ts';
import type { StreamGate } from '../events/stream-limits.ts';
import type { CatalogStore } from '../state/catalog-store.ts';
import type { ClientRegistry } from '../state/clients.ts';
import type { ConnectionsStore } from '../state/connections-store.ts';
import type { EventBus } from '../state/domain-events.ts';
import type { IdempotencyStore } from '../state/idempotency-store.ts';
import type { WebhookReceiverStore } from '../state/webhook-receivers.ts';
import type { Dispatcher } from '../webhooks/dispatcher.ts';
import type { OpenApiDocuments } from './openapi-documents.ts';

/**
 * Everything a public handler may be given; each handler group declares the few members it uses
 * (`Pick<HandlerDeps, ...>`) and the composition root hands it exactly those.
 */
export interface HandlerDeps {
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

export type HandlerResult = PlainResponse | Promise<PlainResponse>;
/** A handler as the pipeline calls it: its dependencies are already bound. */
export type Handler = (ctx: RequestContext) => HandlerResult;
/** Handlers by route id (operationId); the core refuses to start when a route has none. */
export type HandlerMap = Record<string, Handler>;
/** The handlers of one module, each taking the request and the dependencies `D` of its group. */
export type HandlerGroup<D> = Record<string, (ctx: RequestContext, deps: D) => HandlerResult>;

/**
 * Binds a group's handlers to its dependencies.
 * @example bindHandlers(auditHandlers, { audit: state.audit }).getAuditLog(ctx);
 */
export function bindHandlers<D>(group: HandlerGroup<D>, deps: D): HandlerMap {
  return Object.fromEntries(Object.entries(group).map(([id, h]) => [id, (ctx: RequestContext) => h(ctx, deps)]));
}
