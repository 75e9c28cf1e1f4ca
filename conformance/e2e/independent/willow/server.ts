// willow: the interface as a Cloudflare Workers + Hono team would build it, run on node:http. Two loopback
// listeners (the main and the alternate base address) share one World, as two routes of one Worker would.
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { Socket } from 'node:net';
import { dispatch } from './dispatch.ts';
import { BASE, CURRENT_VERSION, VERSIONS } from './http-kit.ts';
import { METADATA_PATH, TOKEN_PATH } from './oauth.ts';
import { buildOpenApi, toYaml } from './openapi.ts';
import { routesOf } from './routes-table.ts';
import { CLIENT, TENANTS, type WillowOptions, World } from './world.ts';

export type { WillowOptions } from './world.ts';

export interface WillowHandle {
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

/** The downloadable description files: /api/public/v1/openapi/<version>.json|yaml and openapi.yaml. */
function serveFile(w: World, path: string, res: ServerResponse): boolean {
  const m = /^\/api\/public\/v1\/openapi(?:\/(\d{4}-\d{2}-\d{2}))?\.(json|yaml)$/.exec(path);
  if (m === null || (m[1] === undefined && m[2] === 'json')) return false;
  const version = m[1] ?? CURRENT_VERSION;
  if (!VERSIONS.includes(version)) return false;
  const doc = buildOpenApi(routesOf(w), version, w.opts.publishedServers);
  const yaml = m[2] === 'yaml';
  const text = yaml ? `${toYaml(doc).trimStart()}\n` : JSON.stringify(doc, null, 2);
  res.statusCode = 200;
  res.setHeader('content-type', yaml ? 'application/yaml; charset=utf-8' : 'application/json; charset=utf-8');
  res.setHeader('content-disposition', `attachment; filename="willow-openapi-${version}.${m[2]}"`);
  res.end(text);
  return true;
}

function handler(w: World) {
  return (req: IncomingMessage, res: ServerResponse): void => {
    const path = new URL(req.url ?? '/', 'http://willow.invalid').pathname;
    const origin = `http://${req.headers.host ?? '127.0.0.1'}`;
    if (path === TOKEN_PATH) {
      void w.auth.handleToken(req, res).catch(() => {
        if (!res.headersSent) res.writeHead(500).end();
      });
      return;
    }
    if (path === METADATA_PATH && req.method === 'GET' && !w.opts.noMetadata) {
      res.setHeader('content-type', 'application/json; charset=utf-8');
      res.end(JSON.stringify(w.auth.metadata(origin)));
      return;
    }
    if (req.method === 'GET' && path.startsWith(`${BASE}/openapi`) && serveFile(w, path, res)) return;
    void dispatch(w, req, res);
  };
}

async function listen(server: Server, port: number): Promise<number> {
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, '127.0.0.1', () => resolve());
  });
  const addr = server.address();
  return typeof addr === 'object' && addr !== null ? addr.port : port;
}

export async function startWillow(
  options: WillowOptions & { port?: number; altPort?: number } = {},
): Promise<WillowHandle> {
  const w = new World(options);
  const sockets = new Set<Socket>();
  const servers = [createServer(handler(w)), createServer(handler(w))];
  for (const s of servers) {
    s.keepAliveTimeout = 5000;
    s.on('connection', (sock) => {
      sockets.add(sock);
      sock.on('close', () => sockets.delete(sock));
    });
  }
  const [main, alt] = servers as [Server, Server];
  const port = await listen(main, options.port ?? 0);
  const altPort = await listen(alt, options.altPort ?? 0);
  const baseUrl = `http://127.0.0.1:${port}`;
  return {
    baseUrl,
    altBaseUrl: `http://127.0.0.1:${altPort}`,
    tenant: TENANTS.main,
    otherTenant: TENANTS.other,
    foreignTenant: TENANTS.foreign,
    clientId: CLIENT.id,
    clientSecret: CLIENT.secret,
    tokenUrl: `${baseUrl}${TOKEN_PATH}`,
    close: async () => {
      w.close();
      for (const sock of sockets) sock.destroy();
      await Promise.all(servers.map((s) => new Promise<void>((resolve) => s.close(() => resolve()))));
    },
  };
}
