// totara: Fastify's reply habits on node:http: `reply.code(n).headers({...}).send(payload)`, lower-case headers,
// `content-type: application/json; charset=utf-8`, and the envelopes, with Fastify's error shape as the detail.
import { type ServerResponse, STATUS_CODES } from 'node:http';
import type { Ctx } from './types.ts';
import { now } from './util.ts';

const HINTS: Record<string, string> = {
  unauthorized: 'Request a new access token and check the environment.',
  forbidden: 'Check the permissions of the access and the x-service-tenant header.',
  not_found: 'Compare the identifier and the tenant header.',
  invalid_request: 'Check the request against the published description.',
  capability_denied: 'Have the capability released.',
  idempotency_conflict: 'Use a new Idempotency-Key for each new operation.',
  idempotency_required: 'Send an Idempotency-Key header.',
  rate_limited: 'Wait for retry-after seconds, then retry with growing intervals.',
  internal: 'Note the request identifier and inform support.',
};

export class Reply {
  private status = 200;
  private readonly extra: Record<string, string> = {};

  private readonly res: ServerResponse;
  private readonly head: boolean;

  constructor(res: ServerResponse, head: boolean) {
    this.res = res;
    this.head = head;
  }

  code(status: number): this {
    this.status = status;
    return this;
  }

  headers(values: Record<string, string> | undefined): this {
    Object.assign(this.extra, values ?? {});
    return this;
  }

  send(body: string, type = 'application/json; charset=utf-8'): void {
    if (this.res.headersSent) return;
    this.res.writeHead(this.status, {
      ...this.extra,
      'content-type': type,
      'content-length': String(Buffer.byteLength(body)),
    });
    this.res.end(this.head ? undefined : body);
  }
}

export function meta(ctx: Ctx, replayed?: boolean): Record<string, unknown> {
  const m: Record<string, unknown> = { requestId: ctx.requestId, version: ctx.version, at: now() };
  if (ctx.idempotencyKey !== undefined) {
    m.idempotencyKey = ctx.idempotencyKey;
    m.replayed = replayed ?? false;
  }
  return m;
}

export function success(ctx: Ctx, data: unknown, replayed?: boolean): string {
  return JSON.stringify({ ok: true, data, meta: meta(ctx, replayed) });
}

/** The failure envelope; detail carries Fastify's error object `{statusCode, code, error, message}` as JSON text. */
export function failure(ctx: Ctx, status: number, code: string, message: string, fastifyCode: string): string {
  const detail = JSON.stringify({
    statusCode: status,
    code: fastifyCode,
    error: STATUS_CODES[status] ?? 'Error',
    message,
  });
  return JSON.stringify({ ok: false, error: { code, message, detail, hint: HINTS[code] }, meta: meta(ctx) });
}
