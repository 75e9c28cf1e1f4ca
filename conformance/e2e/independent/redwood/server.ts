// redwood: an independent deployment of the Network Connections Service interface, written from interface.md
// alone in the style of a serverless/edge team following Google's AIPs. Two loopback ports share one state.
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createAudit } from './audit.ts';
import { createAuth } from './auth.ts';
import { createConnections } from './connections.ts';
import { ApiError, type Ctx, CURRENT_VERSION, fail, invalid, newId, sendJson, VERSIONS } from './http-util.ts';
import { createIdempotency } from './idempotency.ts';
import { createRoutes } from './routes.ts';
import { createStream } from './stream.ts';
import { createWebhooks } from './webhooks.ts';

export interface RedwoodOptions {
  /** Calls per fixed window per client, tenant and environment (default 300). */
  rateLimit?: number;
  /** Length of a fixed rate-limit window (default 10 000 ms). */
  windowMs?: number;
  /** Access token lifetime (default 600 s). */
  tokenTtlS?: number;
  /** Refuse calls without Service-Version (default: optional). */
  serviceVersionRequired?: boolean;
  /** List the audit log newest first (default: oldest first, the AIP create-time order). */
  auditNewestFirst?: boolean;
  /** Webhooks in CloudEvents binary content mode (data as body, attributes in ce-* headers). */
  webhookBinary?: boolean;
  /** The stream without a number starts with the retained history (default: with what happens next). */
  streamFromStart?: boolean;
  strictFields?: boolean;
  logSinceCurrent?: boolean;
  retryAsOperation?: boolean;
  /** A replay repeats the first answer's meta.requestId and meta.at too. */
  exactReplay?: boolean;
  /** A keyed creation's catalog refusal (404, 409) is recorded and replayed like a success (Stripe-like). */
  storeRefusals?: boolean;
  /** Webhooks and deliveries carry only their AIP resource `name`; lists are named by the resource plural. */
  aipNames?: boolean;
  /** Time from PROVISIONING to READY (default 300 ms). */
  readyAfterMs?: number;
  port?: number;
  altPort?: number;
}

export interface Redwood {
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

const CLIENT_ID = 'redwood-partner-ci';
const CLIENT_SECRET = 'rwcs_sandbox_7f3a9c2e5b1d4068a9e1';

export async function startRedwood(options: RedwoodOptions = {}): Promise<Redwood> {
  const tenant = 'redwood-coast';
  const otherTenant = 'redwood-valley';
  const tenants = [tenant, otherTenant];
  const foreignTenant = 'redwood-ridge';
  const auth = createAuth({
    clientId: CLIENT_ID,
    clientSecret: CLIENT_SECRET,
    tenants,
    tokenTtlS: options.tokenTtlS ?? 600,
    rateLimit: options.rateLimit ?? 300,
    windowMs: options.windowMs ?? 10_000,
  });
  const stream = createStream(options.streamFromStart);
  const webhooks = createWebhooks(options.webhookBinary, options.aipNames);
  stream.onEvent(webhooks.onEvent);
  const connections = createConnections(stream.emit, options.readyAfterMs ?? 300);
  const audit = createAudit(options.auditNewestFirst ?? false, options.aipNames);
  const idem = createIdempotency(options.exactReplay, options.storeRefusals);
  const routes = createRoutes({
    auth,
    stream,
    webhooks,
    connections,
    audit,
    idem,
    windowMs: options.windowMs ?? 10_000,
    rateLimit: options.rateLimit ?? 300,
    tokenTtlS: options.tokenTtlS ?? 600,
    strictFields: options.strictFields,
    logSinceCurrent: options.logSinceCurrent,
    retryAsOperation: options.retryAsOperation,
  });

  async function handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const url = new URL(req.url ?? '/', `http://${req.headers.host ?? '127.0.0.1'}`);
    const ctx: Ctx = { req, res, url, requestId: newId('req'), version: CURRENT_VERSION, extraHeaders: {} };
    try {
      if (url.pathname === '/.well-known/oauth-authorization-server' && req.method === 'GET') {
        sendJson(ctx, 200, auth.metadata(url.origin));
        return;
      }
      if (url.pathname === '/auth/v1/token' && req.method === 'POST') {
        await auth.tokenEndpoint(req, res);
        return;
      }
      const sv = req.headers['service-version'];
      if (sv !== undefined) {
        if (!VERSIONS.includes(String(sv))) throw invalid(`Service-Version: one of ${VERSIONS.join(', ')}`);
        ctx.version = String(sv);
      } else if (options.serviceVersionRequired)
        throw invalid(`Service-Version: header required (${VERSIONS.join(', ')})`);
      await routes.dispatch(ctx);
    } catch (e) {
      if (e instanceof ApiError) fail(ctx, e);
      else {
        console.error('redwood internal error', ctx.requestId, e);
        fail(
          ctx,
          new ApiError(
            500,
            'internal',
            'Fault on the service side.',
            undefined,
            `Quote requestId ${ctx.requestId} to support.`,
          ),
        );
      }
    }
  }

  const servers: Server[] = [];
  const listen = (port: number) =>
    new Promise<number>((resolve) => {
      const server = createServer((req, res) => void handle(req, res));
      server.keepAliveTimeout = 5000;
      servers.push(server);
      server.listen(port, '127.0.0.1', () => resolve((server.address() as AddressInfo).port));
    });
  const port = await listen(options.port ?? 0);
  const altPort = await listen(options.altPort ?? 0);
  const baseUrl = `http://127.0.0.1:${port}`;
  return {
    baseUrl,
    altBaseUrl: `http://127.0.0.1:${altPort}`,
    tenant,
    otherTenant,
    foreignTenant,
    clientId: CLIENT_ID,
    clientSecret: CLIENT_SECRET,
    tokenUrl: `${baseUrl}/auth/v1/token`,
    async close() {
      stream.closeAll();
      webhooks.close();
      connections.close();
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
