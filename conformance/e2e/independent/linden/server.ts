// linden: an independent deployment of the interface (Litestar + msgspec + Authlib + Dramatiq style), on two
// loopback listeners (main and alternate base URL) sharing one state.
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { auditLog } from './audit.ts';
import { authenticate, METADATA_PATH, metadata, resolveTenant, TOKEN_PATH, tokenEndpoint } from './auth.ts';
import { ApiError, type Call, fail, newCall, VERSIONS } from './call.ts';
import * as h from './handlers.ts';
import { OPERATION_IDS, openApiDocument, queryOf } from './openapi.ts';
import { admit } from './rate-limit.ts';
import { matchPath, ROUTES } from './routes.ts';
import { createState, FOREIGN_TENANT, type LindenOptions, OTHER_TENANT, type State, TENANT } from './state.ts';
import { closeStreams, openStream } from './stream.ts';
import { sendJson } from './util.ts';
import * as wh from './webhook-handlers.ts';
import { toYaml } from './yaml.ts';

type Handler = (call: Call, params: Record<string, string>) => void | Promise<void>;

const HANDLERS: Record<string, Handler> = {
  'GET /api/public/v1': h.selfDescription,
  'GET /api/public/v1/openapi.json': (call) =>
    sendJson(call.res, 200, openApiDocument(call.state.options), call.headers),
  'GET /api/public/v1/openapi/{file}': (call, params) => {
    const m = /^(\d{4}-\d{2}-\d{2})\.(json|yaml)$/.exec(params.file ?? '');
    if (!m?.[1] || !(VERSIONS as readonly string[]).includes(m[1])) {
      throw new ApiError(
        'not_found',
        'no such description file',
        undefined,
        `files: ${VERSIONS.map((v) => `${v}.json, ${v}.yaml`).join(', ')}`,
      );
    }
    const doc = openApiDocument(call.state.options, m[1]);
    if (m[2] === 'json') return sendJson(call.res, 200, doc, call.headers);
    const text = toYaml(doc);
    call.res.writeHead(200, {
      'content-type': 'application/yaml; charset=utf-8',
      'content-length': String(Buffer.byteLength(text)),
      ...call.headers,
    });
    call.res.end(text);
  },
  'GET /api/public/v1/providers': h.providers,
  'GET /api/public/v1/connectors': h.connectors,
  'GET /api/public/v1/capabilities': h.capabilities,
  'POST /api/public/v1/capabilities': h.checkCapability,
  'GET /api/public/v1/connections': h.listConnections,
  'POST /api/public/v1/connections': h.createConnection,
  'POST /api/public/v1/idempotency-keys': h.issueKey,
  'GET /api/public/v1/stream': openStream,
  'POST /api/public/v1/webhooks': wh.registerWebhook,
  'GET /api/public/v1/audit-log': auditLog,
  'GET /api/public/v1/info': h.info,
  'DELETE /api/public/v1/webhooks/{webhookId}': wh.deleteWebhook,
  'GET /api/public/v1/webhooks/{webhookId}/messages': wh.listMessages,
  'POST /api/public/v1/webhooks/{webhookId}/messages/{messageId}/requeue': wh.requeueMessage,
};

async function handle(call: Call): Promise<void> {
  const path = call.url.pathname.length > 1 ? call.url.pathname.replace(/\/+$/, '') : call.url.pathname;
  const route = ROUTES.find((r) => r.method === call.req.method && matchPath(r.path, path) !== null);
  const params = route ? matchPath(route.path, path) : null;
  if (!route || !params) {
    const known = ROUTES.some((r) => matchPath(r.path, path) !== null);
    throw new ApiError(
      'not_found',
      known ? 'this method is not offered on this path' : 'no such path',
      undefined,
      'GET /api/public/v1 lists the routes',
    );
  }
  const asked = call.req.headers['service-version'];
  if (
    call.state.options.refuseUnknownVersion &&
    typeof asked === 'string' &&
    !(VERSIONS as readonly string[]).includes(asked)
  ) {
    throw new ApiError('invalid_request', 'unknown Service-Version', `published versions: ${VERSIONS.join(', ')}`);
  }
  if (call.state.options.strictQuery) {
    // msgspec-strict query: a parameter the operation does not take is refused like an unknown body field.
    const id = OPERATION_IDS[`${route.method} ${route.path}`] ?? '';
    const known = new Set(queryOf(id, call.state.options).map(([n]) => n));
    const unknown = [...call.url.searchParams.keys()].find((k) => !known.has(k));
    if (unknown !== undefined)
      throw new ApiError(
        'invalid_request',
        'unknown query parameter',
        `\`${unknown.slice(0, 40)}\` is not a parameter of this operation`,
      );
  }
  if (route.auth) {
    authenticate(call);
    admit(call, 'access');
    resolveTenant(call);
    admit(call, 'tenant');
    if (call.state.options.serviceVersionRequired && !call.req.headers['service-version']) {
      throw new ApiError(
        'invalid_request',
        'the Service-Version header is required',
        undefined,
        'send Service-Version: 2026-07-01',
      );
    }
  }
  const handler = HANDLERS[`${route.method} ${route.path}`];
  if (!handler) throw new ApiError('not_found', 'no such path');
  await handler(call, params);
}

function listener(state: State, base: () => string) {
  return (req: IncomingMessage, res: ServerResponse): void => {
    const pathname = (req.url ?? '/').split('?')[0] ?? '/';
    const origin = new URL(base()).origin;
    if (pathname === TOKEN_PATH) {
      tokenEndpoint(req, res, state).catch(() => sendJson(res, 500, { error: 'server_error' }));
      return;
    }
    if (pathname === METADATA_PATH || pathname === `${METADATA_PATH}/api/public/v1`) {
      sendJson(res, 200, metadata(origin, state.options.tokenAuthMethods));
      return;
    }
    const call = newCall(req, res, state, base());
    handle(call).catch((e: unknown) => {
      if (res.headersSent) return void res.end();
      // Unexpected faults answer 500 internal with the request id only; the cause stays in the server log.
      const err =
        e instanceof ApiError
          ? e
          : new ApiError('internal', 'fault on the service side', undefined, `quote ${call.requestId} to support`);
      if (!(e instanceof ApiError)) console.error(`linden ${call.requestId}`, e);
      fail(call, err);
    });
  };
}

export interface Linden {
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

export async function startLinden(options: LindenOptions & { port?: number; altPort?: number } = {}): Promise<Linden> {
  const state = createState(options);
  let main = '';
  let alt = '';
  const servers: Server[] = [createServer(listener(state, () => main)), createServer(listener(state, () => alt))];
  const ports = [options.port ?? 0, options.altPort ?? 0];
  await Promise.all(servers.map((s, i) => new Promise<void>((resolve) => s.listen(ports[i], '127.0.0.1', resolve))));
  const [p1, p2] = servers.map((s) => (s.address() as AddressInfo).port);
  main = `http://127.0.0.1:${p1}`;
  alt = `http://127.0.0.1:${p2}`;
  return {
    baseUrl: main,
    altBaseUrl: alt,
    tenant: TENANT,
    otherTenant: OTHER_TENANT,
    foreignTenant: FOREIGN_TENANT,
    clientId: state.client.id,
    clientSecret: state.client.secret,
    tokenUrl: `${main}${TOKEN_PATH}`,
    state,
    async close() {
      for (const t of state.timers) clearTimeout(t);
      state.timers.clear();
      closeStreams(state);
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
