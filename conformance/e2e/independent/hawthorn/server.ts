// hawthorn: an independent deployment of the Network Connections Service interface, written from
// interface.md alone in the manner of a Java Quarkus team (see README.md). Two loopback listeners (main
// and alternate base address) share one state; startHawthorn() returns what the kit needs.
import { randomBytes } from 'node:crypto';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { AuditLog } from './audit.ts';
import { type AuthConfig, metadata, TOKEN_PATH, tokenEndpoint } from './auth.ts';
import { IdempotencyStore } from './idempotency.ts';
import { Outbox } from './outbox.ts';
import { RateLimiter } from './rate-limit.ts';
import { route } from './routes.ts';
import type { State } from './state.ts';
import { StatusStream } from './stream.ts';
import { ApiError, type Ctx, CURRENT_VERSION, PUBLISHED_VERSIONS, sendError, uuid } from './util.ts';

export interface HawthornOptions {
  /** Token bucket capacity per client, tenant and environment (default 1200). */
  rateLimit?: number;
  /** Time the bucket takes to refill completely (default 60 000 ms). */
  windowMs?: number;
  tokenTtlSeconds?: number;
  activationMs?: number;
  keepAliveMs?: number;
  /** Another legal choice: every stream response ends after this long; the client resumes by Last-Event-ID. */
  streamMaxMs?: number;
  checkpointEvery?: number;
  retryDelayMs?: number;
  maxRetries?: number;
  /** Another legal choice: the outbox relay sends a delivery this long after its event. */
  relayDelayMs?: number;
  /** Another legal choice: the token service takes client_secret_post only (Basic refused, 401). */
  tokenPostOnly?: boolean;
  /** Another legal choice: unknown query parameters are refused (400), as strict JAX-RS validation would. */
  strictQuery?: boolean;
  /** Another legal choice: a connection's capabilities come back in name order (a SortedSet). */
  sortCapabilities?: boolean;
  /** Another legal choice: the signing key is issued in a response header (Hawthorn-Signing-Key). */
  keyInHeader?: boolean;
  /** The audit proof also says algorithm sha256 and canonicalization RFC8785 (both true of its chain). */
  auditProofLabels?: boolean;
  /** How a replayed webhook registration shows the signing key: marker (default), omit, mask or repeat. */
  replayKey?: 'marker' | 'omit' | 'mask' | 'repeat';
  /** Another legal choice: Service-Version mandatory on authenticated calls (400 without it). */
  requireServiceVersion?: boolean;
}

export interface HawthornTarget {
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

function header(req: IncomingMessage, name: string): string | undefined {
  const v = req.headers[name];
  return Array.isArray(v) ? v[0] : v;
}

async function handle(req: IncomingMessage, res: ServerResponse, s: State, opts: HawthornOptions): Promise<void> {
  const host = header(req, 'host') ?? '127.0.0.1';
  const origin = `http://${host}`;
  const url = new URL(req.url ?? '/', origin);
  const asked = header(req, 'service-version')?.trim();
  const ctx: Ctx = {
    req,
    res,
    url,
    origin,
    requestId: `req-${uuid()}`,
    version: asked && PUBLISHED_VERSIONS.includes(asked) ? asked : CURRENT_VERSION,
    idempotencyKey: header(req, 'idempotency-key'),
  };
  try {
    if (url.pathname === TOKEN_PATH) return await tokenEndpoint(req, res, s.auth, origin);
    if (url.pathname === '/.well-known/oauth-authorization-server') return metadata(res, origin, s.auth);
    if (
      opts.requireServiceVersion &&
      !asked &&
      url.pathname.startsWith('/api/public/v1/') &&
      url.pathname !== '/api/public/v1/openapi.json'
    )
      throw new ApiError(
        400,
        'invalid_request',
        'Request incomplete or unsuitable',
        'Service-Version: header required',
        `Send Service-Version: ${CURRENT_VERSION}`,
      );
    await route(ctx, s);
  } catch (err) {
    if (err instanceof ApiError) {
      sendError(ctx, err);
      return;
    }
    // Never a stack trace or exception name in the answer: the request id is what support needs.
    sendError(
      ctx,
      new ApiError(
        500,
        'internal',
        'Fault on the service side',
        undefined,
        `Quote request ${ctx.requestId} to support`,
      ),
    );
  }
}

function listen(server: Server): Promise<number> {
  return new Promise((resolve) => server.listen(0, '127.0.0.1', () => resolve((server.address() as AddressInfo).port)));
}

export async function startHawthorn(opts: HawthornOptions = {}): Promise<HawthornTarget> {
  const auth: AuthConfig = {
    clientId: 'hawthorn-partner-backend',
    clientSecret: `hs_${randomBytes(24).toString('hex')}`,
    released: ['hawthorn-oak-street', 'hawthorn-mill-lane'],
    known: ['hawthorn-oak-street', 'hawthorn-mill-lane', 'hawthorn-quayside'],
    tokenTtlSeconds: opts.tokenTtlSeconds ?? 300,
    ports: [],
    postOnly: opts.tokenPostOnly ?? false,
  };
  const s: State = {
    auth,
    limiter: new RateLimiter({ capacity: opts.rateLimit ?? 1200, windowMs: opts.windowMs ?? 60_000 }),
    idempotency: new IdempotencyStore(),
    stream: new StatusStream(opts.keepAliveMs ?? 15_000, opts.streamMaxMs),
    audit: new AuditLog(opts.checkpointEvery ?? 16, opts.auditProofLabels),
    outbox: new Outbox({
      maxRetries: opts.maxRetries ?? 3,
      retryDelayMs: opts.retryDelayMs ?? 2000,
      attemptTimeoutMs: 5000,
      relayDelayMs: opts.relayDelayMs ?? 0,
    }),
    connections: [],
    webhooks: [],
    activationMs: opts.activationMs ?? 400,
    strictQuery: opts.strictQuery ?? false,
    sortCapabilities: opts.sortCapabilities ?? false,
    keyInHeader: opts.keyInHeader ?? false,
    replayKey: opts.replayKey ?? 'marker',
    timers: new Set(),
  };
  const servers = [0, 1].map(() =>
    createServer((req, res) => {
      void handle(req, res, s, opts);
    }),
  );
  const [main = 0, alt = 0] = await Promise.all(servers.map(listen));
  auth.ports.push(main, alt);
  return {
    baseUrl: `http://127.0.0.1:${main}`,
    altBaseUrl: `http://127.0.0.1:${alt}`,
    tenant: 'hawthorn-oak-street',
    otherTenant: 'hawthorn-mill-lane',
    foreignTenant: 'hawthorn-quayside',
    clientId: auth.clientId,
    clientSecret: auth.clientSecret,
    tokenUrl: `http://127.0.0.1:${main}${TOKEN_PATH}`,
    async close() {
      s.outbox.close();
      for (const t of s.timers) clearTimeout(t);
      await Promise.all(
        servers.map(
          (srv) =>
            new Promise<void>((resolve) => {
              srv.close(() => resolve());
              srv.closeAllConnections();
            }),
        ),
      );
    },
  };
}
