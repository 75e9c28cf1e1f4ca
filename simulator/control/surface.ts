import { timingSafeEqual, createHash } from 'node:crypto';
import { buildControlPlaneDocument } from '../contract/openapi.ts';
import type { RouteDef } from '../contract/route-def.ts';
import { CURRENT_VERSION } from '../contract/versions.ts';
import { ApiError } from '../core/api-error.ts';
import type { RequestContext } from '../core/context.ts';
import { documentResponse, failure, success } from '../core/envelope.ts';
import type { Surface } from '../core/surface.ts';
import type { PlainResponse } from '../core/types.ts';
import { ControlError, type ControlOperations } from './operations.ts';
import type { TokenStore } from '../state/token-store.ts';
import { CONTROL_PREFIX, CONTROL_ROUTES } from './routes.ts';

type ControlHandler = (ctx: RequestContext, ops: ControlOperations) => unknown;

const HANDLERS: Record<string, ControlHandler> = {
  controlSummary: (_c, ops) => ops.summary(),
  controlReset: (_c, ops) => ops.reset(),
  controlSetConnectionState: (c, ops) =>
    ops.setConnectionState(c.params.connectionId!, (c.body as { state: 'active' }).state, c.requestId),
  controlClock: (_c, ops) => ops.clock(),
  controlAdvanceClock: (c, ops) => ops.advanceClock((c.body as { seconds: number }).seconds),
  controlListFaults: (_c, ops) => ops.listFaults(),
  controlAddFault: (c, ops) => ops.addFault(c.body as never),
  controlClearFaults: (_c, ops) => ops.clearFaults(),
  controlSetStatus: (c, ops) => ops.setStatus(c.body as never),
  controlTrigger: (c, ops) => ops.trigger(c.body as never),
};

const compiled = CONTROL_ROUTES.map((route) => ({
  route,
  regex: new RegExp(`^${route.path.replace(/[.]/g, '\\.').replace(/\{(\w+)\}/g, '(?<$1>[^/]+)')}/?$`),
}));
const digest = (s: string) => createHash('sha256').update(s).digest();

function parseBody(route: RouteDef, raw: Uint8Array | undefined): unknown {
  if (!route.body) return undefined;
  let json: unknown = {};
  if (raw && raw.length) {
    try {
      json = JSON.parse(new TextDecoder('utf-8', { fatal: true }).decode(raw));
    } catch {
      throw new ApiError('invalid_request', { detail: 'The body is not valid JSON.' });
    }
  }
  const parsed = route.body.safeParse(json);
  if (!parsed.success) {
    throw new ApiError('invalid_request', {
      detail: `${parsed.error.issues.map((i) => `body field ${i.path.join('.') || '(root)'}: ${i.message}`).join('; ')}.`,
    });
  }
  return parsed.data;
}

/**
 * The sandbox control plane under /_sandbox, guarded by the admin token; answers in the interface's envelopes.
 * @example createControlPlaneSurface({ adminToken, operations: createControlOperations(state), tokens: state.tokens, servers })
 */
export function createControlPlaneSurface(opts: {
  adminToken: string;
  operations: ControlOperations;
  /** Tells a tenant token (403) from an unknown one (401). */
  tokens: Pick<TokenStore, 'lookup'>;
  servers: string[];
}): Surface {
  const admin = digest(opts.adminToken);
  let docJson: string | undefined;
  return {
    name: 'control-plane',
    owns: (path) => path === CONTROL_PREFIX || path.startsWith(`${CONTROL_PREFIX}/`),
    async handle(req, sctx): Promise<PlainResponse> {
      const ctx: RequestContext = {
        req,
        requestId: sctx.requestId,
        at: sctx.at,
        version: CURRENT_VERSION,
        params: {},
        query: req.query,
        body: undefined,
        responseHeaders: {},
      };
      try {
        const hit = compiled.find((c) => c.route.method === req.method && c.regex.test(req.path));
        if (!hit) {
          const allow = compiled
            .filter((c) => c.regex.test(req.path))
            .map((c) => c.route.method)
            .join(', ');
          throw new ApiError(
            'not_found',
            allow
              ? { detail: `This control-plane path answers ${allow}.`, headers: { allow } }
              : {
                  detail: 'No such control-plane route.',
                  hint: `GET ${CONTROL_PREFIX}/openapi.json describes the control plane.`,
                },
          );
        }
        if (hit.route.kind === 'document') {
          docJson ??= JSON.stringify(buildControlPlaneDocument(CONTROL_ROUTES, opts.servers), null, 2);
          return documentResponse(ctx, docJson, 'application/json; charset=utf-8', 'ncs-control-plane-openapi.json');
        }
        const token = /^bearer\s+(\S+)$/i.exec(req.headers.authorization ?? '')?.[1];
        if (!token)
          throw new ApiError('unauthorized', {
            detail: 'The control plane needs the admin token.',
            hint: 'Send Authorization: Bearer <admin token printed by ncs serve>.',
          });
        if (!timingSafeEqual(digest(token), admin)) {
          const tenantToken = opts.tokens.lookup(token);
          if (tenantToken)
            throw new ApiError('forbidden', {
              detail: 'Tenant tokens cannot use the control plane.',
              hint: 'Use the admin token printed by ncs serve.',
            });
          throw new ApiError('unauthorized', {
            detail: 'The admin token is not recognised.',
            hint: 'Use the admin token printed by ncs serve.',
          });
        }
        ctx.params = (hit.regex.exec(req.path)?.groups ?? {}) as Record<string, string>;
        ctx.body = parseBody(hit.route, req.body);
        return success(ctx, await HANDLERS[hit.route.id]!(ctx, opts.operations));
      } catch (err) {
        if (err instanceof ControlError) return failure(ctx, new ApiError(err.code, { detail: err.message }));
        if (err instanceof ApiError) return failure(ctx, err);
        throw err;
      }
    },
  };
}
