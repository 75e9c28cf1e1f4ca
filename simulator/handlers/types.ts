import type { PublicRoute, RouteId } from '../contract/route-table.ts';
import type { AccessToken, RequestContext, RouteContextOf } from '../core/context.ts';
import type { Reply } from '../core/reply.ts';
import type { SseSourceOptions, StreamWatch } from '../events/sse-source.ts';
import type { StreamGate } from '../events/stream-limits.ts';
import type { CatalogStore } from '../state/catalog-store.ts';
import type { ClientService } from '../services/client-service.ts';
import type { EventBus } from '../state/domain-events.ts';
import type { IdempotencyPort } from '../services/idempotency-service.ts';
import type { Dispatcher } from '../webhooks/dispatcher.ts';
import type { AuditService } from '../services/audit-service.ts';
import type { ConnectionService } from '../services/connection-service.ts';
import type { FeedService } from '../services/feed-service.ts';
import type { ReceiverService } from '../services/receiver-service.ts';
import type { OpenApiDocuments } from './openapi-documents.ts';

/**
 * Everything a public handler may be given; each handler group declares the few members it uses
 * (`Pick<HandlerDeps, ...>`) and the composition root hands it exactly those.
 */
export interface HandlerDeps {
  catalog: CatalogStore;
  connections: ConnectionService;
  idempotency: IdempotencyPort;
  clients: ClientService;
  tenants: ReadonlyMap<string, { id: string; name: string }>;
  feeds: FeedService;
  receivers: ReceiverService;
  events: EventBus;
  dispatcher: Dispatcher;
  audit: AuditService;
  documents: OpenApiDocuments;
  /** Open SSE streams and their limits. */
  streams: StreamGate;
  /** Pacing of SSE streams (retry hint, heartbeat, slow-consumer bounds). */
  streamOptions: Omit<SseSourceOptions, 'cursor' | 'onEnd' | 'watch' | 'until'>;
  /** Name of the webhook signature header. */
  signatureHeader: string;
  /** Hosts webhook receivers may point at. */
  webhookHosts: readonly string[];
  /** The shared watch of a token's streams: closes them all when the access ends (revoked, expired). */
  accessStreams: (token: AccessToken) => StreamWatch;
}

/** The context a handler of public route K sees (see RouteContextOf). */
export type RouteContext<K extends RouteId> = RouteContextOf<Extract<PublicRoute, { id: K }>>;

/** A value for the envelope step (`ok(data)`), a raw answer (`raw(res)`); failures are thrown as ApiError. */
export type HandlerResult = Reply | Promise<Reply>;
/** A handler as the pipeline calls it: its dependencies are already bound. */
export type Handler = (ctx: RequestContext) => HandlerResult;
/** One handler per public route: a route without one, or a handler for no route, fails `tsc`. */
export type HandlerMap = { [K in RouteId]: Handler };
/** The handlers of one module (`satisfies HandlerGroup<D>`), each taking its route's context and the group's dependencies. */
export type HandlerGroup<D> = { [K in RouteId]?: (ctx: RouteContext<K>, deps: D) => HandlerResult };

/**
 * Binds a group's handlers to its dependencies. The one place a plain context becomes a route's
 * typed context: route matching, auth and validation ran before any handler is called.
 * @example bindHandlers(auditHandlers, { audit: state.audit }).getAuditLog(ctx);
 */
export function bindHandlers<D, G extends HandlerGroup<D>>(group: G, deps: D): { [K in keyof G]-?: Handler } {
  const bound: Record<string, Handler> = {};
  for (const [id, h] of Object.entries(group) as [string, (ctx: RequestContext, deps: D) => HandlerResult][])
    bound[id] = (ctx) => h(ctx, deps);
  return bound as { [K in keyof G]-?: Handler };
}
