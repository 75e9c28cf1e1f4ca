import type { RequestContext } from '../core/context.ts';
import type { PlainResponse } from '../core/types.ts';
import type { OpenApiDocuments } from './openapi-documents.ts';
import type { SandboxState } from '../state/sandbox-state.ts';

/** What a handler can reach besides its request. */
export interface HandlerDeps {
  state: SandboxState;
  documents: OpenApiDocuments;
}

export type Handler = (ctx: RequestContext, deps: HandlerDeps) => PlainResponse | Promise<PlainResponse>;
/** Handlers by route id (operationId); the core refuses to start when a route has none. */
export type HandlerMap = Record<string, Handler>;
