// chestnut: an independent deployment of the interface, written from interface.md alone by a team with
// Kubernetes habits. Two loopback listeners share one State (main and alternate base address).
import { randomBytes } from 'node:crypto';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Authority, OIDC_CONFIG_PATH, TOKEN_PATH } from './auth.ts';
import { openApiDocument, openApiYaml, selfDescription } from './describe.ts';
import {
  ApiError,
  type CallContext,
  CURRENT_VERSION,
  KNOWN_VERSIONS,
  sendError,
  sendJson,
  sendOk,
} from './http-kit.ts';
import { rfc3339, uuidv7 } from './ids.ts';
import { handleInterface } from './pipeline.ts';
import { SlidingWindow } from './rate-limit.ts';
import { type ChestnutOptions, State } from './state.ts';
import { StreamHub } from './stream.ts';

export type { ChestnutOptions } from './state.ts';

export interface ChestnutTarget {
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

const TENANTS = ['chestnut-alpha', 'chestnut-beta', 'chestnut-gamma'];

export async function startChestnut(options: ChestnutOptions = {}): Promise<ChestnutTarget> {
  const clientId = 'chestnut-operator';
  const clientSecret = `cs_${randomBytes(24).toString('base64url')}`;
  const auth = new Authority(
    [
      {
        id: clientId,
        secret: clientSecret,
        tenants: ['chestnut-alpha', 'chestnut-beta'],
        purpose: 'conformance',
        owner: 'platform-team',
        expiresAt: rfc3339(Date.now() + 90 * 86400_000),
      },
    ],
    TENANTS,
    options.tokenTtlSeconds ?? 300,
  );
  const state = new State(auth, new SlidingWindow(options.rateLimit ?? 1200, options.windowMs ?? 60_000), options);
  const handler = (req: IncomingMessage, res: ServerResponse) => {
    void dispatch(state, req, res).catch(() => {
      if (!res.headersSent)
        sendError(res, context(CURRENT_VERSION), new ApiError('internal', 'fault on the service side'));
      else res.destroy();
    });
  };
  const main = await listen(createServer(handler), options.port ?? 0);
  const alt = await listen(createServer(handler), options.altPort ?? 0);
  const baseUrl = `http://127.0.0.1:${(main.address() as AddressInfo).port}`;
  return {
    baseUrl,
    altBaseUrl: `http://127.0.0.1:${(alt.address() as AddressInfo).port}`,
    tenant: 'chestnut-alpha',
    otherTenant: 'chestnut-beta',
    foreignTenant: 'chestnut-gamma',
    clientId,
    clientSecret,
    tokenUrl: `${baseUrl}${TOKEN_PATH}`,
    async close() {
      state.close();
      await Promise.all([stop(main), stop(alt)]);
    },
  };
}

function context(version: string): CallContext {
  return { requestId: uuidv7(), version, at: rfc3339(), headers: {} };
}

async function dispatch(state: State, req: IncomingMessage, res: ServerResponse): Promise<void> {
  const url = new URL(req.url ?? '/', 'http://127.0.0.1');
  const origin = `http://${req.headers.host ?? '127.0.0.1'}`;
  if (url.pathname === TOKEN_PATH) return state.auth.tokenEndpoint(req, res);
  if (url.pathname === OIDC_CONFIG_PATH) {
    res.writeHead(200, { 'content-type': 'application/json' });
    res.end(
      JSON.stringify({
        issuer: `${origin}/realms/chestnut`,
        token_endpoint: `${origin}${TOKEN_PATH}`,
        grant_types_supported: ['client_credentials'],
        token_endpoint_auth_methods_supported: ['client_secret_basic', 'client_secret_post'],
      }),
    );
    return;
  }
  // Service-Version: a published value is served as that version; an unknown one is refused, never guessed.
  const asked = req.headers['service-version'];
  const cc = context(typeof asked === 'string' && KNOWN_VERSIONS.includes(asked) ? asked : CURRENT_VERSION);
  if (asked !== undefined && (typeof asked !== 'string' || !KNOWN_VERSIONS.includes(asked))) {
    return sendError(
      res,
      cc,
      new ApiError(
        'invalid_request',
        'unknown Service-Version',
        `published versions: ${KNOWN_VERSIONS.join(', ')}`,
        'send Service-Version: 2026-07-01 or leave it out',
      ),
    );
  }
  if (asked === undefined && state.options.requireServiceVersion === true) {
    return sendError(
      res,
      cc,
      new ApiError(
        'invalid_request',
        'Service-Version header missing',
        `published versions: ${KNOWN_VERSIONS.join(', ')}`,
      ),
    );
  }
  const path = url.pathname.length > 1 ? url.pathname.replace(/\/+$/, '') : url.pathname;
  if (req.method === 'GET' && path === '/api/public/v1') return sendOk(res, cc, selfDescription(origin, cc.version));
  if (
    req.method === 'GET' &&
    (path === '/api/public/v1/openapi.json' || path === `/api/public/v1/openapi/${CURRENT_VERSION}.json`)
  ) {
    return sendJson(res, cc, 200, openApiDocument(origin, state.options.auditMaxLimit));
  }
  if (req.method === 'GET' && path === `/api/public/v1/openapi/${CURRENT_VERSION}.yaml`) {
    const text = openApiYaml(origin, state.options.auditMaxLimit);
    res.writeHead(200, {
      'content-type': 'application/yaml; charset=utf-8',
      'audit-id': cc.requestId,
      'content-disposition': `attachment; filename="ncs-${CURRENT_VERSION}.yaml"`,
    });
    res.end(text);
    return;
  }
  if (req.method === 'GET' && path === '/api/public/v1/stream') {
    try {
      const from = StreamHub.resumeFrom(req, url.searchParams);
      state.stream.open(res, from, { 'audit-id': cc.requestId });
    } catch (e) {
      sendError(res, cc, e instanceof ApiError ? e : new ApiError('internal', 'fault on the service side'));
    }
    return;
  }
  await handleInterface(state, req, res, cc, path, url.searchParams);
}

function listen(server: Server, port: number): Promise<Server> {
  return new Promise((resolve) => server.listen(port, '127.0.0.1', () => resolve(server)));
}

function stop(server: Server): Promise<void> {
  server.closeAllConnections();
  return new Promise((resolve) => server.close(() => resolve()));
}
