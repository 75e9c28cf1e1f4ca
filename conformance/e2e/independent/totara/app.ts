// totara: the request lifecycle in Fastify's order: onRequest (version, route, jwt and tenant, rate limit),
// content-type parsing, preValidation (Idempotency-Key), handler, onSend (envelope and headers).
import type { IncomingMessage, ServerResponse } from 'node:http';
import { AuditLog } from './audit.ts';
import { Auth, TOKEN_PATH } from './auth.ts';
import { checkCapability, listCapabilities, listConnectors, listProviders } from './catalog.ts';
import { Connections } from './connections.ts';
import { EventLog, serveStream } from './events.ts';
import { Idempotency } from './idempotency.ts';
import { openapiDocument, yamlDocument } from './openapi.ts';
import { RateLimiter } from './ratelimit.ts';
import { failure, Reply, success } from './reply.ts';
import { match, type RouteId, selfDescription } from './routes.ts';
import { type Ctx, CURRENT_VERSION, HttpError, principalOf, type Result, type Settings, VERSIONS } from './types.ts';
import { header, now, readBody, requestId } from './util.ts';
import { WebhookRoutes } from './webhook-routes.ts';
import { Webhooks } from './webhooks.ts';

export class App {
  readonly auth: Auth;
  readonly limiter: RateLimiter;
  readonly idempotency: Idempotency;
  readonly events = new EventLog();
  readonly audit: AuditLog;
  readonly webhooks: Webhooks;
  readonly connections: Connections;
  private readonly hooks: WebhookRoutes;
  private readonly handlers: Record<RouteId, (ctx: Ctx) => Result>;

  readonly settings: Settings;

  constructor(settings: Settings) {
    this.settings = settings;
    this.auth = new Auth(settings.tokenTtlSeconds);
    this.limiter = new RateLimiter(settings);
    this.idempotency = new Idempotency(settings);
    this.audit = new AuditLog(settings);
    this.webhooks = new Webhooks(settings);
    this.connections = new Connections(settings, this.events, this.audit, this.webhooks);
    this.hooks = new WebhookRoutes(this.webhooks, this.audit);
    this.handlers = {
      self: (ctx) => ({ data: selfDescription(ctx.version, settings) }),
      info: (ctx) => ({
        data: { service: 'network-connections', version: ctx.version, environment: 'sandbox', serverTime: now() },
      }),
      openapi: (ctx) => ({
        raw: { body: JSON.stringify(openapiDocument(ctx.version)), type: 'application/json; charset=utf-8' },
      }),
      openapiFile: (ctx) => openapiFile(ctx.params.file ?? ''),
      providers: listProviders,
      connectors: listConnectors,
      capabilities: listCapabilities,
      capabilityCheck: checkCapability,
      connections: (ctx) => this.connections.list(ctx),
      connection: (ctx) => this.connections.get(ctx),
      connectionCreate: (ctx) => this.connections.create(ctx),
      keyCreate: (ctx) => this.issueKey(ctx),
      stream: () => ({}),
      webhooks: (ctx) => this.hooks.list(ctx),
      webhookCreate: (ctx) => this.hooks.create(ctx),
      webhook: (ctx) => this.hooks.get(ctx),
      webhookDelete: (ctx) => this.hooks.remove(ctx),
      webhookJobs: (ctx) => this.hooks.jobs(ctx),
      webhookJobRetry: (ctx) => this.hooks.retry(ctx),
      auditLog: (ctx) => this.audit.read(ctx),
    };
  }

  private issueKey(ctx: Ctx): Result {
    const body = ctx.body as { operation?: unknown } | undefined;
    const op = body?.operation;
    if (body === undefined || body === null || typeof body !== 'object' || Array.isArray(body))
      throw new HttpError(400, 'invalid_request', 'body must be object', 'FST_ERR_VALIDATION');
    if (op === undefined)
      throw new HttpError(400, 'invalid_request', "body must have required property 'operation'", 'FST_ERR_VALIDATION');
    if (typeof op !== 'string')
      throw new HttpError(400, 'invalid_request', 'body/operation must be string', 'FST_ERR_VALIDATION');
    const n = [...op].length;
    if (n < 2 || n > 80)
      throw new HttpError(
        400,
        'invalid_request',
        `body/operation must NOT have ${n < 2 ? 'fewer than 2' : 'more than 80'} characters`,
        'FST_ERR_VALIDATION',
      );
    return { data: this.idempotency.issue(principalOf(ctx), op) };
  }

  async handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const url = new URL(req.url ?? '/', 'http://localhost');
    const method = (req.method ?? 'GET').toUpperCase();
    const ctx: Ctx = {
      req,
      res,
      method,
      path: url.pathname,
      query: url.searchParams,
      params: {},
      requestId: requestId(),
      version: CURRENT_VERSION,
    };
    const reply = new Reply(res, method === 'HEAD').headers({ 'x-request-id': ctx.requestId });
    try {
      if (ctx.path === TOKEN_PATH && method === 'POST') {
        const out = this.auth.token(req, await readBody(req));
        reply.code(out.status).headers({ 'cache-control': 'no-store' }).send(JSON.stringify(out.body));
        return;
      }
      const asked = header(req, 'service-version')?.trim();
      if (asked && (VERSIONS as readonly string[]).includes(asked)) ctx.version = asked;
      else if (asked && this.settings.unknownVersion === 'reject')
        throw new HttpError(
          400,
          'invalid_request',
          `headers/service-version must be equal to one of the allowed values: ${VERSIONS.join(', ')}`,
          'FST_ERR_VALIDATION',
        );
      reply.headers({ 'service-version': ctx.version });
      const found = match(method, ctx.path);
      if (!found.route)
        throw new HttpError(404, 'not_found', `Route ${method}:${ctx.path} not found`, 'FST_ERR_NOT_FOUND');
      const route = found.route;
      ctx.params = found.params;
      if (route.auth || (route.authOptional && header(req, 'authorization'))) ctx.principal = this.auth.principal(req);
      const who = ctx.principal
        ? `${ctx.principal.clientId}|${ctx.principal.tenant}`
        : `ip:${req.socket.remoteAddress}`;
      ctx.rateHeaders = this.limiter.hit(this.limiter.key(`${route.method} ${route.path}`, who, 'sandbox'));
      reply.headers(ctx.rateHeaders);
      if (route.id === 'stream') {
        serveStream(ctx, this.events, this.settings, {
          'x-request-id': ctx.requestId,
          'service-version': ctx.version,
          ...ctx.rateHeaders,
        });
        return;
      }
      if (method === 'POST' || method === 'DELETE') await this.parseBody(ctx);
      ctx.idempotencyKey =
        route.key === 'none'
          ? undefined
          : this.idempotency.check(header(req, 'idempotency-key'), route.key === 'required');
      const key = ctx.idempotencyKey;
      const fingerprint = key ? this.idempotency.fingerprint(method, ctx.path, ctx.body) : '';
      if (key) {
        const hit = this.idempotency.lookup(principalOf(ctx), key, fingerprint);
        if (hit) {
          reply
            .code(hit.status)
            .headers({ 'x-idempotent-replayed': 'true' })
            .send(success(ctx, hit.data, true));
          return;
        }
      }
      const result = this.handlers[route.id](ctx);
      if (result.raw) {
        reply
          .code(result.status ?? 200)
          .headers(result.raw.headers)
          .send(result.raw.body, result.raw.type);
        return;
      }
      const status = result.status ?? 200;
      if (key) this.idempotency.save(principalOf(ctx), key, fingerprint, status, result.replayData ?? result.data);
      reply.code(status).send(success(ctx, result.data));
    } catch (e) {
      const err =
        e instanceof HttpError ? e : new HttpError(500, 'internal', 'Internal Server Error', 'FST_ERR_INTERNAL');
      if (!(e instanceof HttpError)) console.error('[totara]', ctx.requestId, e);
      reply
        .code(err.statusCode)
        .headers(err.headers)
        .send(failure(ctx, err.statusCode, err.code, err.message, err.fastifyCode));
    }
  }

  /** Fastify's JSON content-type parser: empty or malformed JSON is 400; other media types are refused (400). */
  private async parseBody(ctx: Ctx): Promise<void> {
    const raw = await readBody(ctx.req);
    ctx.rawBody = raw;
    const type = (header(ctx.req, 'content-type') ?? '').toLowerCase();
    if (raw.length === 0) {
      if (type.includes('json'))
        throw new HttpError(
          400,
          'invalid_request',
          "Body cannot be empty when content-type is set to 'application/json'",
          'FST_ERR_CTP_EMPTY_JSON_BODY',
        );
      return;
    }
    if (!/^application\/([\w.+-]*\+)?json\b/.test(type))
      throw new HttpError(
        400,
        'invalid_request',
        `Unsupported Media Type: ${type || 'none'}`,
        'FST_ERR_CTP_INVALID_MEDIA_TYPE',
      );
    try {
      ctx.body = JSON.parse(raw);
    } catch {
      throw new HttpError(400, 'invalid_request', 'Body is not valid JSON', 'FST_ERR_CTP_INVALID_JSON_BODY');
    }
  }
}

function openapiFile(file: string): Result {
  const m = /^(\d{4}-\d{2}-\d{2})\.(json|yaml|yml)$/.exec(file);
  const version = m?.[1] ?? '';
  if (!m || !(VERSIONS as readonly string[]).includes(version))
    throw new HttpError(404, 'not_found', `OpenAPI file ${file} not found`, 'FST_ERR_NOT_FOUND');
  const json = m[2] === 'json';
  return {
    raw: {
      body: json ? `${JSON.stringify(openapiDocument(version), null, 2)}\n` : yamlDocument(version),
      type: json ? 'application/json; charset=utf-8' : 'application/yaml; charset=utf-8',
      headers: { 'content-disposition': `attachment; filename="ncs-openapi-${version}.${json ? 'json' : 'yaml'}"` },
    },
  };
}
