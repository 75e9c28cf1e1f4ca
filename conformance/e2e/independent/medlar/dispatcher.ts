// The node:http port of Next.js routing plus middleware: version negotiation, file-system route matching,
// bearer and tenant checks, the sliding-window rate limit, idempotency keys, and the envelopes.
import type { IncomingMessage, ServerResponse } from 'node:http';
import { IdempotencyStore } from './idempotency.ts';
import { CURRENT_VERSION, VERSIONS } from './openapi.ts';
import { match } from './routes.ts';
import type { App, Ctx, Handler, Reply } from './types.ts';
import { ApiError, invalid, isoNow, nanoid, notFound, parseJsonObject, readRaw } from './util.ts';

type Method = 'GET' | 'POST' | 'DELETE';

export async function dispatch(app: App, req: IncomingMessage, res: ServerResponse, origin: string): Promise<void> {
  const requestId = `fra1::${nanoid(12)}-${Date.now()}`;
  let version: string = CURRENT_VERSION;
  let rateHeaders: Record<string, string> = {};
  const meta = (extra: Record<string, unknown> = {}) => ({ requestId, version, at: isoNow(), ...extra });
  const send = (
    status: number,
    body: unknown,
    headers: Record<string, string> = {},
    contentType = 'application/json; charset=utf-8',
  ) => {
    if (res.headersSent) return;
    res.writeHead(status, {
      'content-type': contentType,
      'cache-control': 'no-store',
      'x-request-id': requestId,
      'x-vercel-id': requestId,
      'service-version': version,
      ...rateHeaders,
      ...headers,
    });
    res.end(typeof body === 'string' ? body : JSON.stringify(body));
  };
  try {
    const url = new URL(req.url ?? '/', origin);
    const asked = req.headers['service-version'];
    const askedVersion = Array.isArray(asked) ? asked[0] : asked;
    if (askedVersion !== undefined && askedVersion !== '') {
      if ((VERSIONS as readonly string[]).includes(askedVersion)) version = askedVersion;
      else if (app.settings.unknownVersion === 'reject') {
        throw invalid(`Unknown Service-Version ${askedVersion}.`, `Supported: ${VERSIONS.join(', ')}.`);
      }
    }
    const route = match(url.pathname);
    if (!route) throw notFound(`No route ${url.pathname}.`);
    const method = (req.method === 'HEAD' ? 'GET' : req.method) as Method;
    const handler: Handler | undefined = route.module[method];
    if (!handler) {
      const allow = (['GET', 'POST', 'DELETE'] as const).filter((m) => route.module[m]).join(', ');
      throw new ApiError(404, 'not_found', `${req.method} is not offered on ${url.pathname}.`, `Allowed: ${allow}.`, {
        allow,
      });
    }
    const ctx: Ctx = { app, req, res, url, params: route.params, version, requestId, baseOrigin: origin };
    if (!route.module.public) {
      const clientId = app.auth.verify(req.headers.authorization);
      const tenant = app.auth.tenant(clientId, req.headers['x-service-tenant']);
      ctx.clientId = clientId;
      ctx.tenant = tenant;
      const limit = app.ratelimit.limitFor(`${clientId}:${tenant}:sandbox`);
      rateHeaders = {
        'x-ratelimit-limit': String(limit.limit),
        'x-ratelimit-remaining': String(limit.remaining),
        'x-ratelimit-reset': String(Math.ceil(limit.reset / 1000)),
      };
      if (!limit.success) {
        throw new ApiError(
          429,
          'rate_limited',
          'Too many calls in a short time.',
          `Wait ${limit.retryAfter} s, then retry with growing intervals.`,
          { 'retry-after': String(limit.retryAfter) },
        );
      }
    }
    const modifying = method === 'POST' || method === 'DELETE';
    const key = modifying
      ? IdempotencyStore.read(req.headers['idempotency-key'], route.module.keyRequired?.includes(method) ?? false)
      : undefined;
    if (key) ctx.idempotencyKey = key;
    if (method === 'POST') {
      const raw = await readRaw(req);
      ctx.body = raw.trim() === '' && route.module.bodyOptional ? {} : parseJsonObject(raw);
    }
    const fingerprint = key ? IdempotencyStore.fingerprint(method, url.pathname, ctx.body) : '';
    if (key) {
      const stored = app.idempotency.lookup(ctx.clientId as string, ctx.tenant as string, key, fingerprint);
      if (stored) {
        const data = stored.replay === undefined ? stored.data : stored.replay;
        send(stored.status, { ok: true, data, meta: meta({ idempotencyKey: key, replayed: true }) }, stored.headers);
        return;
      }
    }
    // Handlers answer synchronously where they write, so a key's lookup and its stored result are one step.
    const produced = handler(ctx);
    if (produced === 'streamed') return;
    const reply: Reply = produced instanceof Promise ? await produced : produced;
    if (key) app.idempotency.remember(ctx.clientId as string, ctx.tenant as string, key, fingerprint, reply);
    if (reply.raw) {
      send(reply.status, reply.raw.body, reply.headers, reply.raw.contentType);
      return;
    }
    send(
      reply.status,
      { ok: true, data: reply.data, meta: meta(key ? { idempotencyKey: key, replayed: false } : {}) },
      reply.headers,
    );
  } catch (e) {
    if (e instanceof ApiError) {
      send(e.status, { ok: false, error: e.body, meta: meta() }, e.headers);
      return;
    }
    send(500, {
      ok: false,
      error: {
        code: 'internal',
        message: 'A fault on the service side.',
        hint: 'Note the request identifier and inform support.',
      },
      meta: meta(),
    });
  }
}
