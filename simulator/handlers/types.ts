import type { RequestContext } from '../core/context.ts';
import type { PlainResponse } from '../core/types.ts';
import type { OpenApiDocuments } from './openapi-documents.ts';
import type { SandboxState } from '../app/sandbox-state.ts';
import type { SseSourceOptions } from '../events/sse-source.ts';
import type { StreamGate } from '../events/stream-limits.ts';

/** What a handler can reach besides its request. */
export interface HandlerDeps {
  state: SandboxState;
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
