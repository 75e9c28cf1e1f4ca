import type { ErrorCode } from '../contract/errors.ts';
import { ROUTES } from '../contract/route-table.ts';
import { createOpenApiDocuments, type OpenApiDocuments } from '../handlers/openapi-documents.ts';
import type { Handler, HandlerDeps, HandlerMap } from '../handlers/types.ts';
import { type HandlerServices, wireHandlers } from './wire-handlers.ts';
import { createStreamGate, DEFAULT_STREAM_LIMITS, type StreamLimits } from '../events/stream-limits.ts';
import { WEBHOOK_DEFAULTS } from '../contract/simulator-defaults.ts';
import { DEFAULT_WEBHOOK_HOSTS } from '../webhooks/receiver-url.ts';
import { authMiddleware } from '../middleware/auth.ts';
import { browserGuardMiddleware } from '../middleware/browser-guard.ts';
import { faultMiddleware } from '../middleware/faults.ts';
import { idempotencyKeyMiddleware } from '../middleware/idempotency-key.ts';
import { idempotencyMiddleware } from '../middleware/idempotency.ts';
import { newRequestId } from '../middleware/request-id.ts';
import { rateLimitMiddleware } from '../middleware/rate-limit.ts';
import { routeMatchMiddleware } from '../middleware/route-match.ts';
import { validateMiddleware } from '../middleware/validate.ts';
import { versionMiddleware } from '../middleware/version.ts';
import type { SandboxState } from './sandbox-state.ts';
import { ApiError } from '../core/api-error.ts';
import { matchedRoute, newContext } from '../core/context.ts';
import { failure } from '../core/envelope.ts';
import { compose, type Middleware } from '../core/pipeline.ts';
import { createRouter } from '../core/router.ts';
import type { Surface } from '../core/surface.ts';
import type { CoreHandler, ExchangeInfo, PlainRequest, PlainResponse } from '../core/types.ts';

export interface RequestLogEntry {
  method: string;
  path: string;
  status: number;
  ms: number;
  requestId: string;
}

export interface CoreOptions {
  state: SandboxState;
  /** `servers` of the served OpenAPI documents (default: relative, right behind any host or proxy). */
  servers?: string[];
  allowBrowserCredentials?: boolean;
  /** Open-stream limits and stream pacing; webhook signature header and allowed receiver hosts. */
  streams?: { limits?: Partial<StreamLimits>; options?: HandlerDeps['streamOptions'] };
  signatureHeader?: string;
  webhookHosts?: readonly string[];
  /** Surfaces outside the public pipeline (OAuth server, control plane), tried first. */
  surfaces?: Surface[];
  /** Extra handlers (tests, later features) merged over the built-in ones. */
  handlers?: Partial<HandlerMap>;
  /** Called once per answered request (the node server prints it). */
  onResponse?: (entry: RequestLogEntry) => void;
  /** Called once per answered request with the request and response themselves (the inspector's journal keeps references). */
  onExchange?: (req: PlainRequest, res: PlainResponse, info: ExchangeInfo) => void;
  /** The observer hook of client verdicts: one step first in the public pipeline, never changing an answer. */
  observe?: Middleware;
  /** Called with unexpected exceptions; the client only ever sees 500 internal. */
  onError?: (err: unknown, requestId: string) => void;
}

/** The wired simulator: the kernel's request handler plus what the composition keeps for tests and tools. */
export interface Core extends CoreHandler {
  ready: Promise<void>;
  state: SandboxState;
  documents: OpenApiDocuments;
  streams: HandlerDeps['streams'];
}

/**
 * The transport-agnostic simulator: plain request in, plain response out.
 * @example const core = createCore({ state, servers: ['http://127.0.0.1:4010'] }); await core.handle({ method: 'GET', path: '/api/public/v1', query: {}, headers: {} });
 */
export function createCore(opts: CoreOptions): Core {
  const { state } = opts;
  const documents = createOpenApiDocuments(opts.servers);
  const router = createRouter(documents.object());
  const services: HandlerServices = {
    documents,
    streams: createStreamGate({ ...DEFAULT_STREAM_LIMITS, ...opts.streams?.limits }),
    streamOptions: opts.streams?.options ?? {},
    signatureHeader: opts.signatureHeader ?? WEBHOOK_DEFAULTS.signatureHeader,
    webhookHosts: opts.webhookHosts ?? DEFAULT_WEBHOOK_HOSTS,
  };
  const handlers: Record<string, Handler | undefined> = { ...wireHandlers(state, services), ...opts.handlers };
  const missing = ROUTES.filter((r) => !handlers[r.id]).map((r) => r.id);
  if (missing.length) throw new Error(`routes without a handler: ${missing.join(', ')}`);

  const steps: Middleware[] = [
    ...(opts.observe ? [opts.observe] : []),
    versionMiddleware(),
    browserGuardMiddleware({ allow: opts.allowBrowserCredentials ?? false }),
    routeMatchMiddleware(router),
    faultMiddleware(state.faults, { feeds: state.feeds }),
    authMiddleware({
      tokens: state.tokens,
      clients: state.clients,
      clock: state.clock,
      environment: state.environment,
    }),
    rateLimitMiddleware(state.rateLimits),
    idempotencyKeyMiddleware(),
    validateMiddleware(router),
    idempotencyMiddleware(state.idempotency),
  ];
  const run = compose(steps, async (ctx) => {
    const handler = handlers[matchedRoute(ctx).id];
    if (!handler) throw new Error('route without a handler'); // refused at start-up already
    return handler(ctx);
  });
  const ready = Promise.all([router.ready, state.ready]).then(() => undefined);
  const surfaces = opts.surfaces ?? [];

  async function handle(req: PlainRequest): Promise<PlainResponse> {
    await ready;
    const started = performance.now();
    const ctx = newContext(req, newRequestId(), state.clock.now());
    let res: PlainResponse;
    try {
      const surface = surfaces.find((s) => s.owns(req.path));
      res = surface ? await surface.handle(req, { requestId: ctx.requestId, at: ctx.at }) : await run(ctx);
    } catch (err) {
      if (err instanceof ApiError) {
        res = failure(ctx, err);
      } else {
        opts.onError?.(err, ctx.requestId);
        res = failure(ctx, new ApiError('internal'));
      }
    }
    const ms = performance.now() - started;
    opts.onResponse?.({ method: req.method, path: req.path, status: res.status, ms, requestId: ctx.requestId });
    if (opts.onExchange) {
      const tenant = ctx.access?.tenant ?? req.headers['x-service-tenant'];
      opts.onExchange(req, res, {
        requestId: ctx.requestId,
        startedAt: Date.now() - ms,
        durationMs: ms,
        ...(tenant ? { tenant } : {}),
        ...(ctx.access ? { clientId: ctx.access.token.clientId } : {}),
      });
    }
    return res;
  }
  function reject(code: ErrorCode, detail: string): PlainResponse {
    const ctx = newContext({ method: 'GET', path: '', query: {}, headers: {} }, newRequestId(), state.clock.now());
    return failure(ctx, new ApiError(code, { detail }));
  }
  return { handle, reject, ready, state, documents, streams: services.streams };
}
