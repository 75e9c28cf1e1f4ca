import type { Meta } from '../contract/envelope.ts';
import { ApiError } from './api-error.ts';
import type { RequestContext } from './context.ts';
import type { PlainResponse } from './types.ts';

const JSON_TYPE = 'application/json; charset=utf-8';

function metaOf(ctx: RequestContext): Meta {
  const meta: Meta = { requestId: ctx.requestId, version: ctx.version, at: new Date(ctx.at).toISOString() };
  if (ctx.idempotencyKey !== undefined) meta.idempotencyKey = ctx.idempotencyKey;
  if (ctx.replayed) meta.replayed = true;
  return meta;
}

function baseHeaders(ctx: RequestContext, contentType: string): Record<string, string> {
  return { 'content-type': contentType, 'x-request-id': ctx.requestId, ...ctx.responseHeaders };
}

/** 200 with the success envelope around `data`. */
export function success(ctx: RequestContext, data: unknown, status = 200): PlainResponse {
  return { status, headers: baseHeaders(ctx, JSON_TYPE), body: JSON.stringify({ ok: true, data, meta: metaOf(ctx) }) };
}

/**
 * Success envelope around a payload that is already JSON text (cached catalog answers): the
 * envelope stays per request (requestId, at) while the payload is serialised once.
 */
export function successRaw(ctx: RequestContext, dataJson: string): PlainResponse {
  return {
    status: 200,
    headers: baseHeaders(ctx, JSON_TYPE),
    body: `{"ok":true,"data":${dataJson},"meta":${JSON.stringify(metaOf(ctx))}}`,
  };
}

/** The failure envelope for an ApiError; never carries internals. */
export function failure(ctx: RequestContext, err: ApiError): PlainResponse {
  const error: Record<string, string> = { code: err.code, message: err.message };
  if (err.detail) error.detail = err.detail;
  error.hint = err.hint;
  return {
    status: err.status,
    headers: { ...baseHeaders(ctx, JSON_TYPE), ...err.headers },
    body: JSON.stringify({ ok: false, error, meta: metaOf(ctx) }),
  };
}

/** A raw document (openapi.json/yaml): not enveloped so tools can consume it directly. */
export function documentResponse(ctx: RequestContext, text: string, contentType: string, filename: string): PlainResponse {
  return {
    status: 200,
    headers: { ...baseHeaders(ctx, contentType), 'content-disposition': `inline; filename="${filename}"` },
    body: text,
  };
}
