// kapok: an independent deployment of the interface, written from interface.md alone in the style of a
// minimalist edge team. Two loopback ports share one state (main and alternate base address).
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { metadata, tokenEndpoint } from './auth.ts';
import { ApiError, newMeta, readRaw, sendError, sendJson, sendOk, VERSIONS } from './http-util.ts';
import { openapi, toYaml } from './openapi.ts';
import { handleApi, match } from './router.ts';
import { DOCS, P, ROUTES, selfDescription } from './routes.ts';
import { createState, type Options, type State } from './state.ts';
import { openStream, resumeFrom } from './stream.ts';

const TENANTS = ['kapok-north', 'kapok-south'];
const FOREIGN = 'kapok-east';

async function serve(s: State, req: IncomingMessage, res: ServerResponse): Promise<void> {
  const origin = `http://${req.headers.host ?? '127.0.0.1'}`;
  const url = new URL(req.url ?? '/', origin);
  const path = url.pathname.length > 1 ? url.pathname.replace(/\/+$/, '') : url.pathname;
  const method = req.method ?? 'GET';
  if (method === 'POST' && path === '/oauth/token')
    return tokenEndpoint(s, req, res, await readRaw(req).catch(() => ''));
  if (method === 'GET' && path === '/.well-known/oauth-authorization-server')
    return sendJson(res, 200, metadata(origin));
  const doc = DOCS[path];
  if (method === 'GET' && (doc || path === `${P}/openapi.json`)) {
    const d = openapi(ROUTES, `${origin}/oauth/token`);
    if (doc === 'yaml') {
      res.writeHead(200, { 'content-type': 'application/yaml; charset=utf-8' });
      return void res.end(`${toYaml(d).slice(1)}\n`);
    }
    return sendJson(res, 200, d);
  }
  const meta = newMeta();
  const sv = req.headers['service-version'];
  if (s.opts.strictServiceVersion && path.startsWith(P) && typeof sv === 'string' && !VERSIONS.includes(sv))
    return sendError(
      res,
      meta,
      new ApiError('invalid_request', 'unknown Service-Version', `one of ${VERSIONS.join(', ')}`),
    );
  if (s.opts.serviceVersionRequired && path.startsWith(P) && typeof sv !== 'string')
    return sendError(
      res,
      meta,
      new ApiError('invalid_request', 'header Service-Version is required', VERSIONS.join(', ')),
    );
  const found = match(ROUTES, method, path);
  if (!found) return sendError(res, meta, new ApiError('not_found', 'no such endpoint', `${method} ${path}`));
  if (path === P) return sendOk(res, meta, selfDescription(origin));
  if (path === `${P}/stream`) {
    try {
      return openStream(s, res, resumeFrom(req, url, s.opts.cursorWins), meta.requestId);
    } catch (e) {
      return sendError(res, meta, e instanceof ApiError ? e : new ApiError('internal', 'fault on the service side'));
    }
  }
  return handleApi(s, found.route, found.params, req, res, url);
}

export interface KapokHandle {
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

function listen(server: Server, port: number): Promise<number> {
  return new Promise((resolve) =>
    server.listen(port, '127.0.0.1', () => resolve((server.address() as AddressInfo).port)),
  );
}

/** Starts kapok on two loopback ports (0: any free port) sharing one state. */
export async function startKapok(
  options: Options & { port?: number; altPort?: number; log?: (line: string) => void } = {},
): Promise<KapokHandle> {
  const s = createState(options, TENANTS, FOREIGN);
  const handler = (req: IncomingMessage, res: ServerResponse) => {
    res.on('finish', () => options.log?.(`${req.method} ${req.url} ${res.statusCode}`));
    serve(s, req, res).catch(() => {
      if (!res.headersSent) sendError(res, newMeta(), new ApiError('internal', 'fault on the service side'));
    });
  };
  const main = createServer(handler);
  const alt = createServer(handler);
  const port = await listen(main, options.port ?? 0);
  const altPort = await listen(alt, options.altPort ?? 0);
  const baseUrl = `http://127.0.0.1:${port}`;
  return {
    baseUrl,
    altBaseUrl: `http://127.0.0.1:${altPort}`,
    tenant: TENANTS[0] as string,
    otherTenant: TENANTS[1] as string,
    foreignTenant: FOREIGN,
    clientId: s.clientId,
    clientSecret: s.clientSecret,
    tokenUrl: `${baseUrl}/oauth/token`,
    async close() {
      for (const t of s.timers) clearTimeout(t);
      for (const r of s.listeners) r.end();
      await Promise.all(
        [main, alt].map(
          (sv) =>
            new Promise<void>((r) => {
              sv.closeAllConnections();
              sv.close(() => r());
            }),
        ),
      );
    },
  };
}
