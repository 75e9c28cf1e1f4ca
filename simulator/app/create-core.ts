import type { ErrorCode } from '../contract/errors.ts';
import { ROUTES } from '../contract/route-table.ts';
import { WEBHOOK_DEFAULTS } from '../contract/simulator-defaults.ts';
import { ApiError, type ApiErrorOptions } from '../core/api-error.ts';
import { newContext } from '../core/context.ts';
import { failure } from '../core/envelope.ts';
import { createFrontDoor } from '../core/front-door.ts';
import type { Mount } from '../core/mount.ts';
import { createRouter } from '../core/router.ts';
import { stopStream } from '../core/stream-stop.ts';
import { pipeline, type Step } from '../core/step.ts';
import type { CoreHandler, ExchangeInfo, PlainRequest, PlainResponse } from '../core/types.ts';
import { createStreamGate, DEFAULT_STREAM_LIMITS, type StreamLimits } from '../events/stream-limits.ts';
import { createOpenApiDocuments, type OpenApiDocuments } from '../handlers/openapi-documents.ts';
import type { Handler, HandlerDeps, HandlerMap } from '../handlers/types.ts';
import { authStep } from '../middleware/auth.ts';
import { browserGuardStep } from '../middleware/browser-guard.ts';
import { faultStep } from '../middleware/faults.ts';
import { idempotencyStep, settledWithWrites } from '../middleware/idempotency.ts';
import { idempotencyKeyStep } from '../middleware/idempotency-key.ts';
import { rateLimitStep } from '../middleware/rate-limit.ts';
import { newRequestId } from '../middleware/request-id.ts';
import { routeMatchStep } from '../middleware/route-match.ts';
import { validateStep } from '../middleware/validate.ts';
import { versionStep } from '../middleware/version.ts';
import { DEFAULT_WEBHOOK_HOSTS } from '../webhooks/receiver-url.ts';
import type { SandboxState } from './sandbox-state.ts';
import { type HandlerServices, wireHandlers } from './wire-handlers.ts';

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
  /** Open-stream limits and stream pacing (SandboxOptions['stream'], passed as it is). */
  stream?: { limits?: Partial<StreamLimits> } & HandlerDeps['streamOptions'];
  /** Webhook signature header and allowed receiver hosts (defaults when undefined). */
  signatureHeader?: string;
  webhookHosts?: readonly string[];
  /** Mounts beside the interface (OAuth server, control plane, inspector), each owning its path prefixes. */
  mounts?: Mount[];
  /** Extra handlers (tests, later features) merged over the built-in ones. */
  handlers?: Partial<HandlerMap>;
  /** Wraps each handler (a shared sandbox runs the writing ones through its operation log). */
  wrapHandler?: (routeId: string, handler: Handler) => Handler;
  /** Called once per answered request (the node server prints it). */
  onResponse?: (entry: RequestLogEntry) => void;
  /** Called once per answered request with the request and response themselves (the inspector's journal keeps references). */
  onExchange?: (req: PlainRequest, res: PlainResponse, info: ExchangeInfo) => void;
  /** Prints each step each request passes, e.g. to stderr (NCS_TRACE=1, `ncs serve --trace`). */
  trace?: (line: string) => void;
  /** The observer hook of client verdicts: one step first in the public pipeline, never changing an answer. */
  observe?: Step;
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
  const router = createRouter(documents.routing());
  const services: HandlerServices = {
    documents,
    streams: createStreamGate({ ...DEFAULT_STREAM_LIMITS, ...opts.stream?.limits }),
    // Pacing only: undefined members leave the stream's defaults in force.
    streamOptions: {
      retryMs: opts.stream?.retryMs,
      heartbeatMs: opts.stream?.heartbeatMs,
      maxLagMessages: opts.stream?.maxLagMessages,
    },
    signatureHeader: opts.signatureHeader ?? WEBHOOK_DEFAULTS.signatureHeader,
    webhookHosts: opts.webhookHosts ?? DEFAULT_WEBHOOK_HOSTS,
  };
  const handlers: Record<string, Handler | undefined> = { ...wireHandlers(state, services), ...opts.handlers };
  // With a data dir an idempotent call's writes and its key's outcome are committed together (a kill -9
  // keeps both or neither): the handler settles the key itself, inside the unit of its writes.
  const together = state.commitTogether;
  if (together)
    for (const route of ROUTES) {
      const h = route.idempotent ? handlers[route.id] : undefined;
      if (h) handlers[route.id] = settledWithWrites(h, together);
    }
  const wrap = opts.wrapHandler;
  if (wrap) for (const [id, h] of Object.entries(handlers)) if (h) handlers[id] = wrap(id, h);

  // The interface's pipeline as data: each step names what it requires and provides (see core/step.ts);
  // `pipeline` fails tsc on an order that breaks a precondition, the front door checks it at start-up.
  const steps = pipeline([
    versionStep(),
    browserGuardStep({ allow: opts.allowBrowserCredentials ?? false }),
    routeMatchStep(router),
    authStep({
      tokens: state.tokens,
      clients: state.clients,
      clock: state.clock,
      environment: state.environment,
    }),
    rateLimitStep(state.rateLimits),
    // After sign-in and the rate limit: an injected fault is the service's answer to a call it took, counted and
    // carrying X-RateLimit-* as every authenticated answer does (a call without its token is refused first).
    faultStep(state.faults, {
      feeds: state.feeds,
      // Fault windows (held answers, latency, stalls, restarts) end when the sandbox clock reaches them.
      timing: { now: () => state.clock.now(), at: (due, fn) => state.timeline.at(due, fn) },
    }),
    idempotencyKeyStep(),
    validateStep(router),
    idempotencyStep(state.idempotency, { handlerSettles: together !== undefined }),
  ]);
  // The interface owns every path no other mount claims: its 404 answers unknown paths.
  const publicMount: Mount = {
    name: 'interface',
    prefixes: [''],
    routes: ROUTES,
    // The observer requires and provides nothing, so first in line keeps every precondition (checked at start-up).
    pipeline: opts.observe ? { ...steps, steps: [opts.observe, ...steps.steps] } : steps,
    needs: ['route', 'access', 'body'],
    handlers,
  };
  const door = createFrontDoor([publicMount, ...(opts.mounts ?? [])], opts.trace ? { trace: opts.trace } : {});
  let isReady = false;
  const ready = Promise.all([router.ready, state.ready]).then(() => {
    isReady = true;
  });

  async function handle(req: PlainRequest): Promise<PlainResponse> {
    // Once ready, no await of a settled promise on every request (a microtask turn and its job).
    if (!isReady) await ready;
    const started = performance.now();
    // HEAD is GET without the body, on every surface (RFC 9110 9.3.2); logs and the journal still say HEAD.
    const routed = req.method === 'HEAD' ? { ...req, method: 'GET' } : req;
    const ctx = newContext(routed, newRequestId(), state.clock.now());
    let res: PlainResponse;
    try {
      res = await door.answer(ctx);
    } catch (err) {
      opts.onError?.(err, ctx.requestId);
      res = failure(ctx, new ApiError('internal'));
    }
    if (routed !== req) res = withoutBody(res);
    const ms = performance.now() - started;
    opts.onResponse?.({ method: req.method, path: req.path, status: res.status, ms, requestId: ctx.requestId });
    if (opts.onExchange) {
      const tenant = ctx.access?.tenant ?? req.headers['x-service-tenant'];
      // Filled in place: spreading optional members made two throw-away objects on every call.
      const info: ExchangeInfo = { requestId: ctx.requestId, startedAt: Date.now() - ms, durationMs: ms };
      if (tenant) info.tenant = tenant;
      if (ctx.access) info.clientId = ctx.access.token.clientId;
      opts.onExchange(req, res, info);
    }
    return res;
  }
  function reject(
    code: ErrorCode,
    detail: string,
    extra: Pick<ApiErrorOptions, 'hint' | 'headers'> = {},
  ): PlainResponse {
    const ctx = newContext({ method: 'GET', path: '', query: {}, headers: {} }, newRequestId(), state.clock.now());
    return failure(ctx, new ApiError(code, { ...extra, detail }));
  }
  return { handle, reject, ready, state, documents, streams: services.streams };
}

/**
 * The answer to a HEAD: the GET's status and headers with its length, and no body. A stream is opened on
 * a sink that takes nothing and stopped at once, so the place it took among the open streams goes back.
 */
export function withoutBody(res: PlainResponse): PlainResponse {
  if (res.stream) stopStream(res.stream.open({ write: () => false, end() {}, onDrain() {} }));
  const { body, stream: _stream, ...rest } = res;
  const length = body === undefined || res.stream ? undefined : Buffer.byteLength(body);
  return {
    ...rest,
    headers: { ...res.headers, ...(length !== undefined ? { 'content-length': String(length) } : {}) },
  };
}
