import { buildControlPlaneDocument, type OpenApiDocument } from '../contract/openapi.ts';
import { ApiError } from '../core/api-error.ts';
import { newContext, type RouteContextOf } from '../core/context.ts';
import { documentResponse, failure, success } from '../core/envelope.ts';
import { compose } from '../core/pipeline.ts';
import { createRouter } from '../core/router.ts';
import type { Surface } from '../core/surface.ts';
import type { PlainResponse } from '../core/types.ts';
import { adminAuthMiddleware } from '../middleware/admin-auth.ts';
import { routeMatchMiddleware } from '../middleware/route-match.ts';
import { validateMiddleware } from '../middleware/validate.ts';
import type { TokenStore } from '../state/token-store.ts';
import { ControlError, type ControlOperations } from './operations.ts';
import { CONTROL_PREFIX, CONTROL_ROUTES, type ControlRoute } from './routes.ts';

type ControlId = ControlRoute['id'];
type ControlHandlers = {
  [K in ControlId]: (
    ctx: RouteContextOf<Extract<ControlRoute, { id: K }>>,
    ops: ControlOperations,
    doc: () => string,
  ) => PlainResponse | Promise<PlainResponse>;
};

/** One handler per control route, bodies typed from the route's zod schema (defaults filled by the router). */
const HANDLERS: ControlHandlers = {
  controlSummary: (c, ops) => success(c, ops.summary()),
  controlOpenApi: (c, _ops, doc) =>
    documentResponse(c, doc(), 'application/json; charset=utf-8', 'ncs-control-plane-openapi.json'),
  controlReset: async (c, ops) => success(c, await ops.reset()),
  controlSetConnectionState: (c, ops) =>
    success(c, ops.setConnectionState(c.params.connectionId, c.body.state, c.requestId)),
  controlClock: (c, ops) => success(c, ops.clock()),
  controlAdvanceClock: (c, ops) => success(c, ops.advanceClock(c.body.seconds)),
  controlListFaults: (c, ops) => success(c, ops.listFaults()),
  controlAddFault: (c, ops) => success(c, ops.addFault(c.body)),
  controlClearFaults: (c, ops) => success(c, ops.clearFaults()),
  controlSetStatus: (c, ops) => success(c, ops.setStatus(c.body)),
  controlTrigger: (c, ops) => success(c, ops.trigger(c.body)),
  controlClientReport: (c, ops) => success(c, ops.clientReport(c.query as { client?: string; tenant?: string })),
  controlReceiverCheck: async (c, ops) => success(c, await ops.receiverCheck(c.body)),
};

/**
 * The sandbox control plane under /_sandbox, guarded by the admin token; answers in the interface's
 * envelopes. Routed and validated like the interface: the core router over the control plane's own
 * OpenAPI document, the route-match, admin-auth and validate middleware factories.
 * @example createControlPlaneSurface({ adminToken, operations: createControlOperations(state), tokens: state.tokens, servers })
 */
export function createControlPlaneSurface(opts: {
  adminToken: string;
  operations: ControlOperations;
  /** Tells a tenant token (403) from an unknown one (401). */
  tokens: Pick<TokenStore, 'lookup'>;
  /** `servers` of the control plane's OpenAPI document (default: relative). */
  servers?: string[];
}): Surface {
  // Built on the first control-plane request, not at start-up: most runs never call the control plane.
  let document: OpenApiDocument | undefined;
  const controlDocument = () => {
    document ??= buildControlPlaneDocument(CONTROL_ROUTES, opts.servers) as OpenApiDocument;
    return document;
  };
  let docJson: string | undefined;
  const doc = () => {
    docJson ??= JSON.stringify(controlDocument(), null, 2);
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
  const handlers: Record<string, ControlHandlers[ControlId]> = HANDLERS;
  const run = compose(
    [
      routeMatchMiddleware(router),
      adminAuthMiddleware({ adminToken: opts.adminToken, tokens: opts.tokens }),
      validateMiddleware(router),
    ],
    async (ctx) => {
      const handler = handlers[ctx.route?.id ?? ''];
      if (!handler) throw new Error('control route without a handler');
      // The router, admin auth and validation above are what make ctx fit the route's typed context.
      return handler(ctx as never, opts.operations, doc);
    },
  );
  return {
    name: 'control-plane',
    owns: (path) => path === CONTROL_PREFIX || path.startsWith(`${CONTROL_PREFIX}/`),
    async handle(req, sctx): Promise<PlainResponse> {
      await router.ready;
      const ctx = newContext(req, sctx.requestId, sctx.at);
      try {
        return await run(ctx);
      } catch (err) {
        if (err instanceof ControlError) return failure(ctx, new ApiError(err.code, { detail: err.message }));
        if (err instanceof ApiError) return failure(ctx, err);
        throw err;
      }
    },
  };
}
