// ironwood: an independent deployment of the interface, written from interface.md alone in the style of an
// Azure-minded enterprise team. Two loopback ports share one state (main and alternate base address).
// Order of a call: route -> bearer token (401) -> rate limit per token (429) -> tenant (400/403) -> handler.
import { randomBytes } from 'node:crypto';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { bearer, METADATA_PATH, metadata, TOKEN_PATH, tokenEndpoint } from './auth.ts';
import { type Answer, ApiError, type Call, failure, newCall, ok, PREFIX, sendJson, VERSION } from './http-util.ts';
import { openApi } from './openapi.ts';
import { SlidingWindow } from './rate-limit.ts';
import { routes } from './route-table.ts';
import * as r from './routes.ts';
import { newState } from './state.ts';
import { StatusStream } from './stream.ts';
import * as w from './webhook-routes.ts';
import { Dispatcher, SIGNATURE_HEADER } from './webhooks.ts';

export interface IronwoodOptions {
  /** Calls per token in the sliding window (default 1000). */
  rateLimit?: number;
  /** The window's length in ms (default 60 000). */
  windowMs?: number;
  /** Access-token lifetime in seconds (default 3599). */
  tokenLifetimeS?: number;
  /** How long a connection stays Provisioning (default 300 ms). */
  provisioningMs?: number;
  /** Server-driven paging (OData odata.maxpagesize): at most this many audit entries a page, whatever $top asks. */
  auditMaxPage?: number;
  /** A capability check naming a connector not in the catalog answers 404 not_found instead of allowed: false. */
  unknownConnector404?: boolean;
  /** Event Grid style event names, deliveries as CloudEvents 1.0 (default: dotted names, plain JSON events). */
  eventGrid?: boolean;
  /** Delivery log paged oldest first, this many a page behind @odata.nextLink (default: newest first, unpaged). */
  deliveryPage?: number;
}

export interface IronwoodDeployment {
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

type Handler = (ctx: r.Ctx, base: string, param: string) => Answer | Promise<Answer>;

/** Authenticated routes: method, path pattern (one optional parameter), handler. */
const AUTHED: [string, RegExp, Handler][] = [
  ['GET', /^\/info$/, (c) => w.info(c)],
  ['GET', /^\/providers$/, (c) => r.listProviders(c)],
  ['GET', /^\/connectors$/, (c) => r.listConnectors(c)],
  ['GET', /^\/capabilities$/, (c) => r.listCapabilities(c)],
  ['POST', /^\/capabilities$/, (c) => r.checkCapability(c)],
  ['GET', /^\/connections$/, (c) => r.listConnections(c)],
  ['POST', /^\/connections$/, (c) => r.createConnection(c)],
  ['POST', /^\/idempotency-keys$/, (c) => r.issueKey(c)],
  ['POST', /^\/webhooks$/, (c) => w.createWebhook(c)],
  ['GET', /^\/webhooks$/, (c) => w.listWebhooks(c)],
  ['DELETE', /^\/webhooks\/([^/]+)$/, (c, _b, id) => w.deleteWebhook(c, id)],
  ['GET', /^\/webhook-deliveries$/, (c, base) => w.deliveryLog(c, base)],
  ['POST', /^\/webhook-deliveries\/([^/:]+):redeliver$/, (c, _b, id) => w.redeliver(c, id)],
  ['GET', /^\/audit-log$/, (c, base) => w.auditLog(c, base)],
];

export async function startIronwood(options: IronwoodOptions = {}): Promise<IronwoodDeployment> {
  const tenant = 'contoso-east';
  const otherTenant = 'contoso-west';
  const foreignTenant = 'fabrikam';
  const client = { id: 'ironwood-conformance', secret: `iw~${randomBytes(24).toString('base64url')}` };
  const state = newState([tenant, otherTenant], [foreignTenant]);
  const limiter = new SlidingWindow({ limit: options.rateLimit ?? 1000, windowMs: options.windowMs ?? 60_000 });
  const stream = new StatusStream();
  const dispatcher = new Dispatcher(state, options.eventGrid ?? false);
  const timers = new Set<NodeJS.Timeout>();
  const urls = { base: '', alt: '', token: '' };

  const selfDescription = (call: Call, base: string) =>
    ok(call, {
      service: 'Network Connections Service',
      surface: 'public',
      version: VERSION,
      authentication: {
        type: 'oauth2',
        flow: 'client_credentials',
        tokenUrl: urls.token,
        header: 'Authorization: Bearer <token>',
        tenantHeader: 'x-service-tenant',
      },
      idempotency: { header: 'Idempotency-Key', pattern: '^[A-Za-z0-9._:-]{8,128}$', validity: 'PT24H' },
      webhooks: { events: dispatcher.names, signatureHeader: SIGNATURE_HEADER },
      openapi: { json: `${base}${PREFIX}/openapi/${VERSION}.json`, yaml: `${base}${PREFIX}/openapi/${VERSION}.yaml` },
      routes: routes(dispatcher.names).map(({ method, path, purpose, auth }) => ({ method, path, purpose, auth })),
    });

  async function authed(call: Call, base: string, handler: Handler, param: string): Promise<void> {
    const who = bearer(state, call.headers.authorization);
    if (!who) {
      call.req.resume();
      const err = new ApiError(
        'unauthorized',
        'A valid bearer token is required.',
        undefined,
        'Request a new access token.',
      );
      const a = failure(call, err);
      return sendJson(call, a.status, a.body, { ...limiter.peekHeaders('anonymous'), 'www-authenticate': 'Bearer' });
    }
    const rate = limiter.take(who.token);
    if (!rate.allowed) {
      call.req.resume();
      const a = failure(
        call,
        new ApiError(
          'rate_limited',
          'Too many calls in the current window.',
          undefined,
          'Wait for Retry-After seconds.',
        ),
      );
      return sendJson(call, a.status, a.body, rate.headers);
    }
    let answer: Answer;
    try {
      const tenantId = call.headers['x-service-tenant'];
      if (tenantId === undefined || tenantId.trim() === '') {
        throw new ApiError(
          'invalid_request',
          'The x-service-tenant header is required.',
          'x-service-tenant: is required',
        );
      }
      if (!state.released.has(tenantId)) {
        throw new ApiError(
          'forbidden',
          'This access is not released for the tenant.',
          undefined,
          'Check the permissions of the access.',
        );
      }
      const ctx: r.Ctx = {
        state,
        call,
        tenant: tenantId,
        clientId: who.clientId,
        stream,
        dispatcher,
        provisioningMs: options.provisioningMs ?? 300,
        timers,
        options,
      };
      answer = await handler(ctx, base, param);
    } catch (e) {
      call.req.resume();
      answer = failure(
        call,
        e instanceof ApiError
          ? e
          : new ApiError('internal', 'An internal error occurred.', undefined, 'Quote the request id to support.'),
      );
    }
    sendJson(call, answer.status, answer.body, rate.headers);
  }

  async function handle(req: IncomingMessage, res: ServerResponse, base: string): Promise<void> {
    const call = newCall(req, res);
    const { method, path } = call;
    if (path === TOKEN_PATH) return tokenEndpoint(req, res, state, client, options.tokenLifetimeS ?? 3599);
    if (path === METADATA_PATH && method === 'GET') return metadata(res, urls.base, urls.token);
    const pub = (a: Answer) => sendJson(call, a.status, a.body);
    if (method === 'GET' && path === PREFIX) return pub(selfDescription(call, base));
    if (method === 'GET' && (path === `${PREFIX}/openapi.json` || path === `${PREFIX}/openapi/${VERSION}.json`)) {
      return sendJson(call, 200, openApi(urls.base, urls.alt, urls.token, dispatcher.names));
    }
    if (method === 'GET' && path === `${PREFIX}/openapi/${VERSION}.yaml`) {
      // JSON is a subset of YAML 1.2: the same document, offered as a YAML download.
      const text = JSON.stringify(openApi(urls.base, urls.alt, urls.token, dispatcher.names), null, 2);
      res.writeHead(200, { 'content-type': 'application/yaml', 'x-ironwood-request-id': call.requestId });
      res.end(text);
      return;
    }
    if (method === 'GET' && path === `${PREFIX}/stream`) {
      try {
        return stream.open(call, stream.startAfter(call));
      } catch (e) {
        return pub(failure(call, e instanceof ApiError ? e : new ApiError('internal', 'An internal error occurred.')));
      }
    }
    if (path.startsWith(`${PREFIX}/`)) {
      const rest = path.slice(PREFIX.length);
      for (const [m, pattern, handler] of AUTHED) {
        const match = pattern.exec(rest);
        if (match && m === method) return authed(call, base, handler, decodeURIComponent(match[1] ?? ''));
      }
    }
    req.resume();
    return pub(failure(call, new ApiError('not_found', `No resource ${method} ${path} exists.`)));
  }

  const servers: Server[] = [];
  const listen = (which: 'base' | 'alt') =>
    new Promise<string>((resolve) => {
      const server = createServer((req, res) => {
        handle(req, res, which === 'base' ? urls.base : urls.alt).catch(() => {
          if (!res.headersSent) res.writeHead(500, { 'content-type': 'application/json' });
          res.end();
        });
      });
      server.keepAliveTimeout = 5000;
      servers.push(server);
      server.listen(0, '127.0.0.1', () => resolve(`http://127.0.0.1:${(server.address() as AddressInfo).port}`));
    });
  urls.base = await listen('base');
  urls.alt = await listen('alt');
  urls.token = `${urls.base}${TOKEN_PATH}`;

  return {
    baseUrl: urls.base,
    altBaseUrl: urls.alt,
    tenant,
    otherTenant,
    foreignTenant,
    clientId: client.id,
    clientSecret: client.secret,
    tokenUrl: urls.token,
    async close() {
      stream.close();
      dispatcher.close();
      for (const t of timers) clearTimeout(t);
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
