// Mahogany: the Network Connections Service as a plain node:http service, two base addresses, one state.
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { authenticate, checkTenant, rateLimit, tokenEndpoint } from './auth.ts';
import { ApiError, type Ctx, canonical, invalid, newId, readBody, sendError, sendOk, sha256 } from './http.ts';
import {
  CLIENT_ID,
  CLIENT_SECRET,
  CURRENT_VERSION,
  FOREIGN_TENANT,
  IDEMPOTENCY_KEY_PATTERN,
  type MahoganyOptions,
  OTHER_TENANT,
  resolveOptions,
  TENANT,
  TOKEN_PATH,
  VERSIONS,
} from './options.ts';
import { match } from './router.ts';
import { State } from './state.ts';
import { installWebhooks } from './webhooks.ts';

export type { MahoganyOptions } from './options.ts';

export interface MahoganyHandle {
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

const one = (v: string | string[] | undefined) => (Array.isArray(v) ? v[0] : v)?.trim();

/** Idempotency: same key and content replays the stored answer; other content is a conflict. */
function idempotent(ctx: Ctx, run: () => { status?: number; data: unknown } | undefined) {
  const key = ctx.idempotencyKey as string;
  const scope = `${ctx.clientId}|${ctx.tenant}|${key}`;
  const fingerprint = sha256(
    `${ctx.req.method} ${ctx.url.pathname}\n${ctx.body === undefined ? ctx.rawBody : canonical(ctx.body)}`,
  );
  const now = Date.now();
  const found = ctx.state.idempotency.get(scope);
  if (found && found.expiresAt > now) {
    if (found.fingerprint !== fingerprint) {
      throw new ApiError(
        'idempotency_conflict',
        'Same idempotency key with different content',
        'The key was used before for another request.',
        'Use a new key for each new operation.',
      );
    }
    ctx.replayed = true;
    sendOk(ctx, { status: found.status, data: found.data });
    return;
  }
  const reply = run();
  if (!reply) return;
  ctx.state.idempotency.set(scope, {
    fingerprint,
    status: reply.status ?? 200,
    data: reply.data,
    expiresAt: now + ctx.state.options.idempotencyTtlMs,
  });
  sendOk(ctx, reply);
}

async function dispatch(ctx: Ctx) {
  const { req } = ctx;
  const requested = one(req.headers['service-version']);
  if (requested) {
    if (!(VERSIONS as readonly string[]).includes(requested)) {
      throw invalid('Unknown Service-Version', `Service-Version: one of ${VERSIONS.join(', ')}`);
    }
    ctx.version = requested;
  }
  const path = ctx.url.pathname.length > 1 ? ctx.url.pathname.replace(/\/+$/, '') : ctx.url.pathname;
  const method = req.method === 'HEAD' ? 'GET' : (req.method ?? 'GET');
  const { route, params, allowed } = match(method, path);
  if (!route) {
    if (allowed.length > 0) {
      throw new ApiError(
        'not_found',
        `Operation ${method} is not offered on this path`,
        `Allowed: ${allowed.join(', ')}`,
        undefined,
        {
          allow: allowed.join(', '),
        },
      );
    }
    throw new ApiError(
      'not_found',
      'The entry does not exist',
      `No resource at ${path}`,
      'See GET /api/public/v1 for the routes.',
    );
  }
  ctx.params = params;
  if (route.auth) {
    authenticate(ctx);
    rateLimit(ctx);
    checkTenant(ctx);
  }
  if (route.key) {
    const key = one(req.headers['idempotency-key']);
    if (!key) {
      throw new ApiError(
        'idempotency_required',
        'An idempotency key is mandatory for this call',
        'Header Idempotency-Key is missing.',
        'Send the key.',
      );
    }
    if (!IDEMPOTENCY_KEY_PATTERN.test(key)) {
      throw invalid('Header Idempotency-Key is invalid', `Idempotency-Key: pattern ${IDEMPOTENCY_KEY_PATTERN.source}`);
    }
    ctx.idempotencyKey = key;
  }
  if (route.method === 'POST' || route.method === 'DELETE') {
    ctx.rawBody = await readBody(req);
    if (ctx.rawBody.trim() !== '') {
      try {
        ctx.body = JSON.parse(ctx.rawBody);
      } catch {
        if (route.method === 'POST') throw invalid('Request body is not valid JSON');
      }
    }
  }
  if (route.key) {
    idempotent(ctx, () => route.handler(ctx));
    return;
  }
  const reply = route.handler(ctx);
  if (reply) sendOk(ctx, reply);
}

async function handle(state: State, req: IncomingMessage, res: ServerResponse) {
  let url: URL;
  try {
    url = new URL(req.url ?? '/', 'http://127.0.0.1');
  } catch {
    url = new URL('http://127.0.0.1/');
  }
  if (url.pathname === TOKEN_PATH) {
    await tokenEndpoint(state, req, res).catch(() => {
      if (!res.headersSent) res.writeHead(500).end();
    });
    return;
  }
  const ctx: Ctx = {
    req,
    res,
    url,
    state,
    requestId: newId(),
    version: CURRENT_VERSION,
    params: {},
    rawBody: '',
    body: undefined,
    headers: {},
  };
  const correlation = one(req.headers['x-correlation-id']);
  if (correlation && /^[\w.:-]{1,128}$/.test(correlation)) ctx.headers['x-correlation-id'] = correlation;
  try {
    await dispatch(ctx);
  } catch (e) {
    if (e instanceof ApiError) sendError(ctx, e);
    else
      sendError(
        ctx,
        new ApiError(
          'internal',
          'Fault on the service side',
          undefined,
          'Note the request identifier and inform support.',
        ),
      );
  }
}

function listen(server: Server, port: number): Promise<number> {
  return new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, '127.0.0.1', () => resolve((server.address() as AddressInfo).port));
  });
}

/** Starts mahogany on two loopback ports sharing one state. */
export async function startMahogany(options: MahoganyOptions = {}): Promise<MahoganyHandle> {
  const state = new State(resolveOptions(options));
  installWebhooks(state);
  state.publish('service.started', { service: 'mahogany', status: 'UP' });
  const servers = [0, 1].map(() => createServer((req, res) => void handle(state, req, res)));
  const [main, alt] = servers as [Server, Server];
  const port = await listen(main, options.port ?? 0);
  const altPort = await listen(alt, options.altPort ?? 0);
  state.baseUrl = `http://127.0.0.1:${port}`;
  state.altBaseUrl = `http://127.0.0.1:${altPort}`;
  return {
    baseUrl: state.baseUrl,
    altBaseUrl: state.altBaseUrl,
    tenant: TENANT,
    otherTenant: OTHER_TENANT,
    foreignTenant: FOREIGN_TENANT,
    clientId: CLIENT_ID,
    clientSecret: CLIENT_SECRET,
    tokenUrl: `${state.baseUrl}${TOKEN_PATH}`,
    async close() {
      state.close();
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
