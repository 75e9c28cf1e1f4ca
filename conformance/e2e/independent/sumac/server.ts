// sumac: an independent deployment of the Network Connections Service interface, written from
// interface.md alone by a Laravel-minded team on node:http. Two loopback listeners share one state.
import { randomBytes } from 'node:crypto';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tokenEndpoint } from './auth.ts';
import { IdempotencyStore } from './idempotency.ts';
import { buildOpenApi, toYaml } from './openapi.ts';
import { describe, dispatch } from './routes.ts';
import { createState, type State } from './state.ts';
import { openStream } from './stream.ts';
import {
  ApiError,
  type Ctx,
  CURRENT_VERSION,
  fail,
  newRequestId,
  PUBLISHED_VERSIONS,
  type SumacOptions,
} from './support.ts';

export type { SumacOptions } from './support.ts';

const BASE = '/api/public/v1';

export interface SumacTarget {
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

function versionOf(state: State, req: IncomingMessage): string {
  const raw = req.headers['service-version'];
  const v = Array.isArray(raw) ? raw[0] : raw;
  if (v === undefined) {
    if (state.opts.serviceVersionRequired) {
      throw new ApiError('invalid_request', 'The Service-Version header is required.', {
        hint: `Send Service-Version: ${CURRENT_VERSION}.`,
      });
    }
    return CURRENT_VERSION;
  }
  if (!PUBLISHED_VERSIONS.includes(v.trim())) {
    throw new ApiError('invalid_request', 'The Service-Version is not a published version.', {
      hint: `Published versions: ${PUBLISHED_VERSIONS.join(', ')}.`,
    });
  }
  return v.trim();
}

async function handle(state: State, idem: IdempotencyStore, origin: string, req: IncomingMessage, res: ServerResponse) {
  const url = new URL(req.url ?? '/', origin);
  if (url.pathname === '/oauth/token' && req.method === 'POST') return tokenEndpoint(state, req, res);
  const ctx: Ctx = { req, res, url, origin, requestId: newRequestId(), version: CURRENT_VERSION };
  try {
    ctx.version = versionOf(state, req);
    const path = url.pathname.replace(/\/+$/, '');
    if (!path.startsWith(BASE)) throw new ApiError('not_found', 'The route was not found.');
    const rel = path.slice(BASE.length);
    if (req.method === 'GET' && rel === '') return describe(state, ctx);
    if (req.method === 'GET' && rel === '/openapi.json')
      return sendDoc(ctx, JSON.stringify(buildOpenApi(origin, state.opts.pageMax)), 'application/json');
    if (req.method === 'GET' && rel === `/openapi/${CURRENT_VERSION}.json`) {
      return sendDoc(
        ctx,
        JSON.stringify(buildOpenApi(origin, state.opts.pageMax), null, 2),
        'application/json',
        'openapi.json',
      );
    }
    if (req.method === 'GET' && rel === `/openapi/${CURRENT_VERSION}.yaml`) {
      return sendDoc(
        ctx,
        `${toYaml(buildOpenApi(origin, state.opts.pageMax)).slice(1)}\n`,
        'application/yaml',
        'openapi.yaml',
      );
    }
    if (req.method === 'GET' && rel === '/stream') return openStream(state, ctx);
    if (!(await dispatch(state, idem, ctx, rel))) throw new ApiError('not_found', 'The route was not found.');
  } catch (e) {
    if (res.headersSent) return void res.end();
    if (e instanceof ApiError) return fail(ctx, e);
    // Nothing internal leaves the process: the request id is all support needs.
    fail(ctx, new ApiError('internal', 'Server Error.', { hint: `Quote the request id ${ctx.requestId} to support.` }));
  }
}

function sendDoc(ctx: Ctx, text: string, type: string, download?: string): void {
  const headers: Record<string, string | number> = {
    'Content-Type': type,
    'Content-Length': Buffer.byteLength(text),
    'X-Request-Id': ctx.requestId,
  };
  if (download) headers['Content-Disposition'] = `attachment; filename="${download}"`;
  ctx.res.writeHead(200, headers);
  ctx.res.end(text);
}

function listen(server: Server): Promise<number> {
  return new Promise((resolve) => server.listen(0, '127.0.0.1', () => resolve((server.address() as AddressInfo).port)));
}

/** Starts both listeners on free loopback ports; close() stops the queue worker and both listeners. */
export async function startSumac(options: SumacOptions = {}): Promise<SumacTarget> {
  const clientId = 'sumac-partner';
  const clientSecret = `sumac_cs_${randomBytes(18).toString('hex')}`;
  const state = createState(options, clientId, clientSecret, ['sumac-north', 'sumac-south']);
  const idem = new IdempotencyStore();
  const servers: Server[] = [];
  const ports: number[] = [];
  for (let n = 0; n < 2; n++) {
    let origin = '';
    const server = createServer((req, res) => {
      handle(state, idem, origin, req, res).catch(() => {
        // A fault after the answer started: drop the connection rather than the process.
        res.destroy();
      });
    });
    server.keepAliveTimeout = 5000;
    const port = await listen(server);
    origin = `http://127.0.0.1:${port}`;
    servers.push(server);
    ports.push(port);
  }
  const baseUrl = `http://127.0.0.1:${ports[0]}`;
  return {
    baseUrl,
    altBaseUrl: `http://127.0.0.1:${ports[1]}`,
    tenant: 'sumac-north',
    otherTenant: 'sumac-south',
    foreignTenant: 'sumac-west',
    clientId,
    clientSecret,
    tokenUrl: `${baseUrl}/oauth/token`,
    async close() {
      for (const t of state.timers) clearTimeout(t);
      state.timers.clear();
      await Promise.all(
        servers.map(
          (s) =>
            new Promise<void>((resolve) => {
              s.close(() => resolve());
              s.closeAllConnections();
            }),
        ),
      );
    },
  };
}
