// ivy: the interface as a serverless team would deploy it (API Gateway + Lambda + DynamoDB + SQS), on
// loopback: two API Gateway stages (main and alternate base address, one shared state) and an
// authorization server on a third port. Cold starts, an eventually consistent list, a queued stream and
// queued webhooks are part of the style; see README.md.
import type { IncomingMessage, Server, ServerResponse } from 'node:http';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createAudit } from './audit.ts';
import type { AuthState } from './auth.ts';
import { authenticate, authorizeTenant, tenantHeader, tokenEndpoint } from './auth.ts';
import { createConnections } from './connections.ts';
import type { Call } from './http-kit.ts';
import { ApiError, BASE_PATH, fail, header, newCall, ok, readRaw, sendJson, sleep } from './http-kit.ts';
import { createIdempotency } from './idempotency.ts';
import { secret } from './ids.ts';
import { openapiDocument } from './openapi.ts';
import type { Services } from './operations.ts';
import { handle } from './operations.ts';
import { createRateLimiter } from './rate-limit.ts';
import { match, ROUTES, selfDescription } from './routes.ts';

import { createStream } from './stream.ts';
import { checkKey } from './validate.ts';
import { createWebhooks } from './webhooks.ts';

export interface IvyOptions {
  /** Lag of GET /connections behind a creation (jittered 0.4x-1.6x, capped at 490 ms); 0: none. */
  lagMs?: number;
  /** Extra time of a route's first call after start or 60 s idle, [min, max]; [0, 0]: none. */
  coldMs?: [number, number];
  /** Hard limit of one stream (API Gateway's integration timeout). */
  streamLimitMs?: number;
  /** Delay of a change before it reaches the stream, [min, max]. */
  fanoutMs?: [number, number];
  /** The alternate base address shares the main one's rate-limit bucket. */
  sharedAltBucket?: boolean;
  ratePerSecond?: number;
  burst?: number;
  /** Receives one line per list read that missed a connection still inside its lag. */
  trace?: (line: string) => void;
}

export interface Ivy {
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

const IDLE_MS = 60_000;

function listen(server: Server): Promise<number> {
  return new Promise((resolve) => server.listen(0, '127.0.0.1', () => resolve((server.address() as AddressInfo).port)));
}

export async function startIvy(options: IvyOptions = {}): Promise<Ivy> {
  const environment = 'sandbox';
  const clientId = 'ivy-integrator';
  const clientSecret = secret('ivycs_', 24);
  const auth: AuthState = {
    clients: [{ id: clientId, secret: clientSecret, tenants: ['ivy-harbor', 'ivy-meadow'] }],
    tokens: new Map(),
    knownTenants: ['ivy-harbor', 'ivy-meadow', 'ivy-quarry'],
  };
  const stream = createStream({ fanoutMs: options.fanoutMs ?? [500, 1000], limitMs: options.streamLimitMs ?? 29_000 });
  const webhooks = createWebhooks({ queueMs: [500, 2000], retryEveryMs: 5000, retries: 3 });
  const services: Services = {
    connections: createConnections({
      lagMs: options.lagMs ?? 250,
      activateMs: 1500,
      trace: options.trace,
      onChange(tenant, event, connection) {
        stream.publish({
          type: event,
          connectionId: connection.id,
          state: connection.state,
          at: new Date().toISOString(),
        });
        webhooks.emit(tenant, event, { connection });
      },
    }),
    idempotency: createIdempotency(),
    webhooks,
    audit: createAudit(),
    environment,
  };
  const limiter = createRateLimiter({
    ratePerSecond: options.ratePerSecond ?? 10,
    burst: options.burst ?? 20,
    sharedAltBucket: options.sharedAltBucket ?? false,
    environment,
  });
  const [coldMin, coldMax] = options.coldMs ?? [300, 600];
  const lastCall = new Map<string, number>();
  let tokenUrl = '';

  async function coldStart(operationId: string): Promise<void> {
    const now = Date.now();
    const last = lastCall.get(operationId);
    lastCall.set(operationId, now);
    if (coldMax > 0 && (last === undefined || now - last > IDLE_MS))
      await sleep(coldMin + Math.random() * (coldMax - coldMin));
  }

  async function route(call: Call): Promise<void> {
    const rel =
      call.path === BASE_PATH
        ? ''
        : call.path.startsWith(`${BASE_PATH}/`)
          ? call.path.slice(BASE_PATH.length)
          : undefined;
    const found = rel === undefined ? undefined : match(call.method, rel);
    if (!found?.route) throw new ApiError('not_found', 'No such resource.', `${call.method} ${call.path}`);
    const r = found.route;
    await coldStart(r.operationId);
    if (r.operationId === 'describe') return ok(call, selfDescription(call, ROUTES, tokenUrl));
    if (r.operationId === 'openapi') return sendJson(call, 200, openapiDocument(call.baseUrl));
    if (r.operationId === 'stream') return stream.serve(call);
    const client = authenticate(auth, call.req);
    const tenant = tenantHeader(call.req);
    limiter.take(call, client.id, tenant);
    authorizeTenant(client, tenant);
    const key = header(call.req, 'idempotency-key');
    if (r.key === 'required' && key === undefined) {
      throw new ApiError(
        'idempotency_required',
        'This call requires an Idempotency-Key header.',
        undefined,
        'Send the key.',
      );
    }
    if (r.key !== 'none') call.idempotencyKey = checkKey(key);
    const raw = call.method === 'POST' ? await readRaw(call.req) : '';
    await handle(services, { call, route: r, params: found.params, clientId: client.id, tenant, raw });
  }

  function handler(stage: 'main' | 'alt', baseUrl: () => string) {
    return (req: IncomingMessage, res: ServerResponse) => {
      const call = newCall(req, res, stage, baseUrl());
      route(call).catch((err: unknown) => {
        if (res.headersSent) return void res.end();
        // A refused key is not "the key used for the call": the answer does not name it.
        if (!(err instanceof ApiError) || err.code === 'invalid_request') call.idempotencyKey = undefined;
        fail(
          call,
          err instanceof ApiError
            ? err
            : new ApiError('internal', 'An internal error occurred.', undefined, 'Quote the requestId to support.'),
        );
      });
    };
  }

  const ports = { main: 0, alt: 0 };
  const main = createServer(handler('main', () => `http://127.0.0.1:${ports.main}`));
  const alt = createServer(handler('alt', () => `http://127.0.0.1:${ports.alt}`));
  const authServer = createServer((req, res) => void tokenEndpoint(auth, req, res));
  ports.main = await listen(main);
  ports.alt = await listen(alt);
  const authPort = await listen(authServer);
  tokenUrl = `http://127.0.0.1:${authPort}/oauth2/token`;

  return {
    baseUrl: `http://127.0.0.1:${ports.main}`,
    altBaseUrl: `http://127.0.0.1:${ports.alt}`,
    tenant: 'ivy-harbor',
    otherTenant: 'ivy-meadow',
    foreignTenant: 'ivy-quarry',
    clientId,
    clientSecret,
    tokenUrl,
    async close() {
      stream.close();
      webhooks.close();
      services.connections.close();
      await Promise.all(
        [main, alt, authServer].map(
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
