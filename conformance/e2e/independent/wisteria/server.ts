// wisteria: an independent deployment of the interface, written from interface.md alone in the style of a
// Java Spring Boot team (HATEOAS links, Spring Data pages, RSA-PSS signed audit pages, a JWK set).
// Two loopback ports (main and alternate base address) share one state.
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { JWKS_PATH, jwks } from './audit.ts';
import { authenticate, authMetadata, handleToken, TOKEN_PATH } from './auth.ts';
import { describe, routeAuthenticated } from './controllers.ts';
import {
  ApiError,
  type Call,
  CURRENT_VERSION,
  newRequestId,
  PUBLISHED_VERSIONS,
  sendError,
  sendRaw,
  setTimeOffset,
} from './http-kit.ts';
import { openApiDocument } from './openapi.ts';
import { createState, type State, TENANTS, type WisteriaOptions } from './state.ts';
import { openStream } from './stream.ts';

const API = '/api/public/v1';

function optionalPrincipal(state: State, call: Call): string | undefined {
  if (call.headers.authorization === undefined) return undefined;
  const m = /^Bearer\s+(\S+)$/i.exec(call.headers.authorization);
  const entry = m?.[1] === undefined ? undefined : state.tokens.get(m[1]);
  const tenant = call.headers['x-service-tenant'];
  if (entry === undefined || entry.expiresAt <= Date.now() || tenant === undefined) return undefined;
  return state.released.has(tenant) ? tenant : undefined;
}

async function handle(state: State, origin: string, req: IncomingMessage, res: ServerResponse): Promise<void> {
  const url = new URL(req.url ?? '/', origin);
  const headers: Record<string, string> = {};
  for (const [k, v] of Object.entries(req.headers))
    if (v !== undefined) headers[k] = Array.isArray(v) ? v.join(', ') : v;
  const call: Call = {
    req,
    res,
    method: req.method ?? 'GET',
    path: url.pathname,
    query: url.searchParams,
    origin,
    requestId: newRequestId(),
    version: CURRENT_VERSION,
    headers,
  };
  try {
    if (call.path === TOKEN_PATH) return await handleToken(state, req, res);
    if (call.method === 'GET' && call.path.startsWith('/.well-known/oauth-authorization-server')) {
      return sendRaw(res, 200, authMetadata(state, origin));
    }
    const asked = headers['service-version'];
    if (asked !== undefined && !PUBLISHED_VERSIONS.includes(asked.trim())) {
      throw new ApiError(
        'invalid_request',
        'Unknown Service-Version.',
        `Published versions: ${PUBLISHED_VERSIONS.join(', ')}.`,
      );
    }
    if (asked === undefined && state.options.serviceVersionRequired && call.path.startsWith(API)) {
      throw new ApiError(
        'invalid_request',
        'Header Service-Version is required.',
        `Current version: ${CURRENT_VERSION}.`,
      );
    }
    if (asked !== undefined) call.version = asked.trim();
    if (call.method === 'GET' && call.path === API) return describe(state, call);
    if (call.method === 'GET' && call.path === `${API}/openapi.json`) return sendRaw(res, 200, openApiDocument(origin));
    if (call.method === 'GET' && call.path === `${API}/openapi.yaml`) {
      // JSON is YAML 1.2: the download is the same document under a YAML media type.
      return sendRaw(res, 200, openApiDocument(origin), 'application/yaml');
    }
    if (call.method === 'GET' && call.path === JWKS_PATH)
      return sendRaw(res, 200, jwks(state), 'application/jwk-set+json');
    if (call.method === 'GET' && call.path === `${API}/stream`)
      return openStream(state, call, optionalPrincipal(state, call));
    if (!call.path.startsWith(`${API}/`)) throw new ApiError('not_found', 'No such resource.');
    const who = authenticate(state, call);
    return await routeAuthenticated(state, call, who);
  } catch (e) {
    if (res.headersSent) return void res.end();
    if (e instanceof ApiError) return sendError(call, e);
    console.error(`[wisteria] ${call.requestId}`, e);
    return sendError(call, new ApiError('internal', 'Internal error. Quote the request id to support.'));
  }
}

export interface WisteriaHandle {
  baseUrl: string;
  altBaseUrl: string;
  tenant: string;
  otherTenant: string;
  foreignTenant: string;
  clientId: string;
  clientSecret: string;
  tokenUrl: string;
  state: State;
  close(): Promise<void>;
}

async function listen(state: State): Promise<string> {
  let origin = '';
  const server = createServer((req, res) => void handle(state, origin, req, res));
  server.keepAliveTimeout = 5000;
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  state.servers.push(server);
  return origin;
}

/** Starts wisteria on two loopback ports; `close()` ends streams, timers and both servers. */
export async function startWisteria(options: WisteriaOptions = {}): Promise<WisteriaHandle> {
  const state = createState(options);
  setTimeOffset(options.timeOffsetMinutes);
  const baseUrl = await listen(state);
  const altBaseUrl = await listen(state);
  return {
    baseUrl,
    altBaseUrl,
    ...TENANTS,
    clientId: state.clientId,
    clientSecret: state.clientSecret,
    tokenUrl: `${baseUrl}${TOKEN_PATH}`,
    state,
    async close() {
      for (const t of state.timers) clearTimeout(t);
      state.timers.clear();
      await Promise.all(
        state.servers.map(
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
