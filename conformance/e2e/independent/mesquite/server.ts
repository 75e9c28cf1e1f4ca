// mesquite: the Network Connections Service as a Ballerina team builds it (`service /api/public/v1 on new
// http:Listener(...)`) behind WSO2 Choreo's gateway, ported to node:http. Two listeners share one store.
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { authenticate, TOKEN_PATH, tokenEndpoint } from './auth.ts';
import { HANDLERS } from './handlers.ts';
import { ApiError, type Ctx, fail, newCtx, readRaw, sendJson } from './http.ts';
import { match, ROUTES } from './routes.ts';
import { createStore, type MesquiteOptions, type Store, VERSIONS } from './state.ts';
import { closeStreams } from './stream.ts';

function route(ctx: Ctx): void {
  const path = ctx.url.pathname.replace(/\/+$/, '') || '/';
  if (path === TOKEN_PATH && !ctx.store.options.separateSts) {
    tokenEndpoint(ctx);
    return;
  }
  const asked = ctx.req.headers['service-version'];
  if (asked === undefined && ctx.store.options.versionRequired) {
    throw new ApiError('invalid_request', 'Header Service-Version is required.', `Send one of ${VERSIONS.join(', ')}.`);
  }
  // An unknown Service-Version is refused rather than guessed (a missing one means the current version).
  if (typeof asked === 'string' && !(VERSIONS as readonly string[]).includes(asked)) {
    throw new ApiError(
      'invalid_request',
      `Unknown Service-Version '${asked}'.`,
      `Send one of ${VERSIONS.join(', ')} or omit the header.`,
    );
  }
  let pathKnown = false;
  for (const r of ROUTES) {
    const params = match(r, path);
    if (!params) continue;
    pathKnown = true;
    if (r.method !== ctx.method) continue;
    if (r.since && r.since > ctx.version) {
      throw new ApiError(
        'not_found',
        `${path} is not offered in version ${ctx.version}.`,
        `Send Service-Version ${r.since}.`,
      );
    }
    if (r.auth) authenticate(ctx);
    const handler = HANDLERS[r.operationId];
    if (!handler) throw new ApiError('internal', 'No resource function is bound to this route.');
    handler(ctx, params);
    return;
  }
  // Ballerina answers an unmatched resource with 404 and a method mismatch with 405; both are wrapped here,
  // the 405 as invalid_request (the interface's codes have no 405 of their own).
  if (pathKnown) throw new ApiError('invalid_request', `Method ${ctx.method} is not allowed on ${path}.`);
  throw new ApiError('not_found', `No resource matches ${path}.`, 'Compare the path with GET /api/public/v1.');
}

function serve(store: Store): Server {
  return createServer((req, res) => {
    void (async () => {
      const raw = await readRaw(req);
      const ctx = newCtx(req, res, store, raw);
      try {
        route(ctx);
      } catch (err) {
        if (res.headersSent) return void res.end();
        // Anything not raised as an ApiError is a fault of ours: the envelope names none of its details.
        fail(
          ctx,
          err instanceof ApiError
            ? err
            : new ApiError('internal', 'An internal error occurred.', 'Quote meta.requestId to support.'),
        );
      }
    })();
  });
}

async function stsServe(store: Store, req: IncomingMessage, res: ServerResponse): Promise<void> {
  const ctx = newCtx(req, res, store, await readRaw(req));
  if (ctx.url.pathname === TOKEN_PATH) tokenEndpoint(ctx);
  else sendJson(ctx, 404, { error: 'not_found' });
}

async function listen(server: Server): Promise<number> {
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return (server.address() as AddressInfo).port;
}

/** Starts mesquite on two loopback ports (main and alternate address) over one store. */
export async function startMesquite(options: MesquiteOptions = {}) {
  const store = createStore(options);
  const main = serve(store);
  const alt = serve(store);
  const [port, altPort] = [await listen(main), await listen(alt)];
  const baseUrl = `http://127.0.0.1:${port}`;
  // Choreo's STS answers only the token path; anything else there is a plain 404.
  const sts = options.separateSts ? createServer((req, res) => void stsServe(store, req, res)) : undefined;
  const tokenBase = sts ? `http://127.0.0.1:${await listen(sts)}` : baseUrl;
  return {
    baseUrl,
    altBaseUrl: `http://127.0.0.1:${altPort}`,
    tenant: 'acme-bistro',
    otherTenant: 'harbour-cafe',
    foreignTenant: 'sealed-kitchen',
    clientId: store.clientId,
    clientSecret: store.clientSecret,
    tokenUrl: `${tokenBase}${TOKEN_PATH}`,
    store,
    async close(): Promise<void> {
      closeStreams(store);
      for (const s of sts ? [main, alt, sts] : [main, alt]) {
        s.closeAllConnections();
        await new Promise<void>((resolve) => s.close(() => resolve()));
      }
    },
  };
}
