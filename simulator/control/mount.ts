import { buildControlPlaneDocument, type OpenApiDocument } from '../contract/openapi.ts';
import { ApiError } from '../core/api-error.ts';
import type { RequestContext, RouteContextOf } from '../core/context.ts';
import { documentReply, failure } from '../core/envelope.ts';
import { envelopeOnError } from '../core/front-door.ts';
import type { Mount, MountHandler } from '../core/mount.ts';
import { pipeline } from '../core/step.ts';
import { ok, type Reply } from '../core/reply.ts';
import { createRouter } from '../core/router.ts';
import type { PlainResponse } from '../core/types.ts';
import { adminAuthStep } from '../middleware/admin-auth.ts';
import { routeMatchStep } from '../middleware/route-match.ts';
import { validateStep } from '../middleware/validate.ts';
import type { TokenService } from '../services/token-service.ts';
import { ControlError, type ControlPort } from './operations.ts';
import { CONTROL_DOCUMENT_ROUTES } from './run-route.ts';
import { CONTROL_PREFIX, CONTROL_ROUTES, type ControlRoute } from './routes.ts';

type ControlId = ControlRoute['id'];
type ControlHandlers = {
  [K in ControlId]: (
    ctx: RouteContextOf<Extract<ControlRoute, { id: K }>>,
    ops: ControlPort,
    doc: () => string,
    mount: ControlPlaneOptions,
  ) => Reply | Promise<Reply>;
};

/** One handler per control route, bodies typed from the route's zod schema (defaults filled by the router). */
const HANDLERS: ControlHandlers = {
  controlSummary: async (_c, ops) => ok(await ops.summary()),
  controlOpenApi: (c, _ops, doc) =>
    documentReply(c, doc(), 'application/json; charset=utf-8', 'ncs-control-plane-openapi.json'),
  controlReset: async (_c, ops) => ok(await ops.reset()),
  controlSetConnectionState: async (c, ops) =>
    ok(await ops.setConnectionState(c.params.connectionId, c.body.state, c.requestId)),
  controlClock: async (_c, ops) => ok(await ops.clock()),
  controlAdvanceClock: async (c, ops) => ok(await ops.advanceClock(c.body.seconds)),
  controlListFaults: async (_c, ops) => ok(await ops.listFaults()),
  controlAddFault: async (c, ops) => ok(await ops.addFault(c.body)),
  controlClearFaults: async (_c, ops) => ok(await ops.clearFaults()),
  controlSetStatus: async (c, ops) => ok(await ops.setStatus(c.body)),
  controlTrigger: async (c, ops) => ok(await ops.trigger(c.body)),
  controlClientReport: async (c, ops) => ok(await ops.clientReport(c.query)),
  controlReceiverCheck: async (c, ops) => ok(await ops.receiverCheck(c.body)),
  controlInspectorLogin: (c, _ops, _doc, mount) => {
    if (!mount.inspectorLogin) throw new ControlError('not_found', 'The inspector is off (--no-inspector).');
    return ok({ url: mount.inspectorLogin(c.req.origin ?? 'http://127.0.0.1:4010') });
  },
};

export interface ControlPlaneOptions {
  adminToken: string;
  operations: ControlPort;
  /** Tells a tenant token (403) from an unknown one (401). */
  tokens: Pick<TokenService, 'lookup'>;
  /** `servers` of the control plane's OpenAPI document (default: relative). */
  servers?: string[];
  /** Mints a fresh inspector login URL for an origin (`ncs inspector`); absent when the inspector is off. */
  inspectorLogin?: (origin: string) => string;
}

/**
 * The document the control plane's router matches and validates with, one per process: routing reads
 * paths and schemas only, not `servers` (which name each sandbox's port), and building it cost every
 * sandbox some 40 ms of CPU. The published document (GET /_sandbox/openapi.json) keeps its servers.
 */
let routingDocument: OpenApiDocument | undefined;

/**
 * The sandbox control plane mounted at /_sandbox, guarded by the admin token; answers in the interface's
 * envelopes. Routed and validated like the interface: the core router over the control plane's own
 * OpenAPI document, the route-match, admin-auth and validate steps.
 * @example createControlPlaneMount({ adminToken, operations: createControlOperations(state), tokens: state.tokens, servers })
 */
export function createControlPlaneMount(opts: ControlPlaneOptions): Mount {
  // Built on the first control-plane request, not at start-up: most runs never call the control plane.
  const controlDocument = () => {
    routingDocument ??= buildControlPlaneDocument(CONTROL_ROUTES) as OpenApiDocument;
    return routingDocument;
  };
  // The published document adds POST /_sandbox/runs, which app/runs.ts answers before this mount.
  let docJson: string | undefined;
  const doc = () => {
    docJson ??= JSON.stringify(buildControlPlaneDocument(CONTROL_DOCUMENT_ROUTES, opts.servers), null, 2);
    return docJson;
  };
  const router = createRouter(controlDocument, {
    routes: CONTROL_ROUTES,
    useDefaults: true,
    unknownPath: () => ({
      detail: 'No such control-plane route.',
      hint: `GET ${CONTROL_PREFIX}/openapi.json describes the control plane.`,
    }),
    wrongMethod: (_method, _path, allow) => ({ detail: `This control-plane path answers ${allow}.` }),
  });
  // The router, admin auth and validation steps are what make ctx fit each route's typed context.
  const handlers: Record<string, MountHandler> = {};
  for (const [id, h] of Object.entries(HANDLERS) as [ControlId, ControlHandlers[ControlId]][])
    handlers[id] = (ctx) => h(ctx as never, opts.operations, doc, opts);
  return {
    name: 'control-plane',
    prefixes: [CONTROL_PREFIX],
    routes: CONTROL_ROUTES,
    // Not versioned: every request is served as the current interface version.
    pipeline: pipeline(
      [
        routeMatchStep(router),
        adminAuthStep({ adminToken: opts.adminToken, tokens: opts.tokens }),
        validateStep(router),
      ],
      ['version'],
    ),
    handlers,
    ready: () => router.ready,
    onError: controlOnError,
  };
}

/**
 * The control plane's failures in the interface's envelope: ApiError as it is, ControlError (thrown by
 * the operations, which MSW users call directly) by its code.
 * @example controlOnError(new ControlError('not_found', 'No connection c1.'), ctx)?.status // 404
 */
export function controlOnError(err: unknown, ctx: RequestContext): PlainResponse | undefined {
  if (err instanceof ControlError) return failure(ctx, new ApiError(err.code, { detail: err.message }));
  return envelopeOnError(err, ctx);
}
