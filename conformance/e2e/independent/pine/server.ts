// pine: an independent deployment of the interface, written from interface.md alone the way an Elixir
// Phoenix team on Fly.io would run it. Two loopback listeners (main and alternate base address) share
// one state; the pipeline is the endpoint's (rate limit, body parser) then the router's (auth, tenant,
// Service-Version, idempotency) then the controller.

import type { IncomingMessage, Server, ServerResponse } from 'node:http';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { authenticate, METADATA_PATH, negotiateVersion, serveMetadata, serveToken, TOKEN_PATH } from './auth.ts';
import type { Answer, Ctx } from './http-kit.ts';
import {
  CURRENT_VERSION,
  fail,
  Halt,
  incomingRequestId,
  parseJson,
  readBody,
  requestId,
  respond,
  sendJson,
} from './http-kit.ts';
import { checkKey, storeAnswer } from './idempotency.ts';
import { openApiDocument } from './openapi.ts';
import { RateLimiter } from './rate-limit.ts';
import type { App, Route } from './routes.ts';
import { ROUTES } from './routes.ts';
import type { PineOptions } from './state.ts';
import { PineState } from './state.ts';
import { Feeds, resumePoint, serveFeed } from './stream.ts';

export interface PineTarget {
  baseUrl: string;
  altBaseUrl: string;
  tenant: string;
  otherTenant: string;
  foreignTenant: string;
  clientId: string;
  clientSecret: string;
  tokenUrl: string;
  close(): Promise<void>;
}

/** The route for a method and path (a path served for other methods only is a 404, as Phoenix's router answers). */
function match(method: string, path: string): { route: Route; params: Record<string, string> } | undefined {
  for (const r of ROUTES) {
    if (r.method !== method) continue;
    const m = r.pattern.exec(path);
    if (m === null) continue;
    const params: Record<string, string> = {};
    r.names.forEach((n, i) => {
      params[n] = decodeURIComponent(m[i + 1] ?? '');
    });
    return { route: r, params };
  }
  return undefined;
}

async function handle(
  req: IncomingMessage,
  res: ServerResponse,
  app: App,
  limiter: RateLimiter,
  origin: string,
): Promise<void> {
  const url = new URL(req.url ?? '/', origin);
  if (url.pathname === TOKEN_PATH) return serveToken(req, res, app.state);
  if (url.pathname === METADATA_PATH && req.method === 'GET') return serveMetadata(res, origin);
  const given = app.state.options.trustRequestId === true ? incomingRequestId(req.headers['x-request-id']) : undefined;
  const ctx: Ctx = {
    req,
    res,
    url,
    origin,
    requestId: given ?? requestId(),
    version: CURRENT_VERSION,
    headers: {},
    params: {},
  };
  try {
    const found = match(req.method ?? 'GET', url.pathname);
    if (found === undefined) {
      respond(ctx, fail('not_found', 'No route for this method and path', `${req.method} ${url.pathname}`));
      return;
    }
    const { route } = found;
    ctx.params = found.params;
    const late = app.state.options.rateLimitAfterAuth === true;
    if (route.auth && !late) limiter.hit(ctx, app.state);
    if (req.method !== 'GET') ctx.body = parseJson(await readBody(req), req.headers['content-type']);
    if (!route.auth) {
      negotiateVersion(ctx, false);
      if (route.path.endsWith('/openapi.json')) {
        sendJson(ctx, 200, openApiDocument(origin, ctx.version));
      } else if (route.path.endsWith('/openapi/{version}')) {
        serveDownload(ctx, origin);
      } else if (route.path.endsWith('/stream')) {
        serveStream(ctx, app);
      } else if (route.run !== undefined) {
        respond(ctx, route.run(ctx, app));
      }
      return;
    }
    authenticate(ctx, app.state);
    if (late) limiter.hit(ctx, app.state);
    negotiateVersion(ctx, app.state.options.serviceVersionOptional !== true);
    const replay = route.key === 'none' ? undefined : checkKey(ctx, app.state, url.pathname, route.key === 'required');
    if (replay !== undefined) {
      if (app.state.options.redactKeyOnReplay === true && route.path.endsWith('/webhooks')) {
        delete (replay.data as Record<string, unknown>).signingKey;
      }
      respond(ctx, replay);
      return;
    }
    const answer: Answer = route.run === undefined ? fail('not_found', 'No route') : route.run(ctx, app);
    storeAnswer(ctx, app.state, url.pathname, answer);
    respond(ctx, answer);
  } catch (err) {
    if (res.headersSent) {
      res.destroy();
      return;
    }
    // Anything unexpected is a 500 with the request id only (details stay in the logs, not the answer).
    respond(
      ctx,
      err instanceof Halt
        ? err.answer
        : fail('internal', 'Something went wrong on our side', undefined, 'Quote the request id to support.'),
    );
  }
}

function serveStream(ctx: Ctx, app: App): void {
  const cursor = resumePoint(ctx);
  if (ctx.req.headers.authorization === undefined) {
    serveFeed(ctx, app.feeds, app.feeds.public, cursor);
    return;
  }
  // With credentials the stream is the tenant's own topic (full connection data).
  authenticate(ctx, app.state);
  serveFeed(ctx, app.feeds, app.feeds.tenantFeed(ctx.tenant ?? ''), cursor);
}

function serveDownload(ctx: Ctx, origin: string): void {
  const version = ctx.params.version?.replace(/\.json$/, '') ?? '';
  if (version !== CURRENT_VERSION && version !== '2026-06-12') {
    respond(ctx, fail('not_found', 'No description for this version', 'version: 2026-06-12 or 2026-07-01'));
    return;
  }
  ctx.headers['content-disposition'] = `attachment; filename="pine-openapi-${version}.json"`;
  sendJson(ctx, 200, openApiDocument(origin, version));
}

function listen(server: Server): Promise<string> {
  return new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as AddressInfo;
      resolve(`http://127.0.0.1:${port}`);
    });
  });
}

/** Starts pine on two loopback ports sharing one state. */
export async function startPine(options: PineOptions = {}): Promise<PineTarget> {
  const state = new PineState(options);
  const app: App = { state, feeds: new Feeds(state.options.streamRetention) };
  const limiter = new RateLimiter(state.options.rateLimit, state.options.windowMs);
  const origins: string[] = [];
  const servers = [0, 1].map((i) =>
    createServer({ keepAliveTimeout: 5000 }, (req, res) => {
      handle(req, res, app, limiter, origins[i] ?? '').catch(() => res.destroy());
    }),
  );
  for (const s of servers) origins.push(await listen(s));
  const [baseUrl = '', altBaseUrl = ''] = origins;
  const client = state.clients[0];
  return {
    baseUrl,
    altBaseUrl,
    tenant: 'pine-harbor',
    otherTenant: 'pine-meadow',
    foreignTenant: 'pine-ridge',
    clientId: client?.id ?? '',
    clientSecret: client?.secret ?? '',
    tokenUrl: `${baseUrl}${TOKEN_PATH}`,
    async close() {
      state.close();
      app.feeds.closeAll();
      await Promise.all(
        servers.map(
          (s) =>
            new Promise<void>((resolve) => {
              s.closeAllConnections();
              s.close(() => resolve());
            }),
        ),
      );
    },
  };
}
