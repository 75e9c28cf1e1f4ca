import type { Meta } from '../contract/envelope.ts';
import { ApiError } from './api-error.ts';
import type { RequestContext } from './context.ts';
import type { PlainResponse } from './types.ts';
import { isoTime } from '../lib/iso-time.ts';

const JSON_TYPE = 'application/json; charset=utf-8';

function metaOf(ctx: RequestContext): Meta {
  const meta: Meta = { requestId: ctx.requestId, version: ctx.version, at: isoTime(ctx.at) };
  if (ctx.idempotencyKey !== undefined) meta.idempotencyKey = ctx.idempotencyKey;
  if (ctx.replayed) meta.replayed = true;
  return meta;
}

// Every meta value is JSON-safe as it stands (ids and keys are [A-Za-z0-9._:-], versions are dates,
// `at` is ISO 8601), so the text is assembled instead of going through JSON.stringify per request.
const SAFE = /^[A-Za-z0-9._:-]*$/;
function metaJson(ctx: RequestContext): string {
  if (!SAFE.test(ctx.requestId) || (ctx.idempotencyKey !== undefined && !SAFE.test(ctx.idempotencyKey)))
    return JSON.stringify(metaOf(ctx));
  let json = `{"requestId":"${ctx.requestId}","version":"${ctx.version}","at":"${isoTime(ctx.at)}"`;
  if (ctx.idempotencyKey !== undefined) json += `,"idempotencyKey":"${ctx.idempotencyKey}"`;
  if (ctx.replayed) json += ',"replayed":true';
  return `${json}}`;
}

/** The JSON text of `data` when `res` is the success response last built for `ctx`, else undefined. */
export function successDataJson(ctx: RequestContext, res: PlainResponse): string | undefined {
  return ctx.success?.res === res ? ctx.success.dataJson : undefined;
}

function baseHeaders(ctx: RequestContext, contentType: string): Record<string, string> {
  return { 'content-type': contentType, 'x-request-id': ctx.requestId, ...ctx.responseHeaders };
}

/** 200 with the success envelope around `data`. */
export function success(ctx: RequestContext, data: unknown, status = 200): PlainResponse {
  const dataJson = JSON.stringify(data);
  if (dataJson === undefined)
    return {
      status,
      headers: baseHeaders(ctx, JSON_TYPE),
      body: JSON.stringify({ ok: true, data, meta: metaOf(ctx) }),
    };
  return successRaw(ctx, dataJson, status);
}

/**
 * Success envelope around a payload that is already JSON text (cached catalog answers): the
 * envelope stays per request (requestId, at) while the payload is serialised once.
 */
export function successRaw(ctx: RequestContext, dataJson: string, status = 200): PlainResponse {
  const res: PlainResponse = {
    status,
    headers: baseHeaders(ctx, JSON_TYPE),
    body: `{"ok":true,"data":${dataJson},"meta":${metaJson(ctx)}}`,
  };
  ctx.success = { res, dataJson };
  return res;
}

/** The failure envelope for an ApiError; never carries internals. */
export function failure(ctx: RequestContext, err: ApiError): PlainResponse {
  const error: Record<string, string> = { code: err.code, message: err.message };
  if (err.detail) error.detail = err.detail;
  error.hint = err.hint;
  return {
    status: err.status,
    headers: { ...baseHeaders(ctx, JSON_TYPE), ...err.headers },
    body: `{"ok":false,"error":${JSON.stringify(error)},"meta":${metaJson(ctx)}}`,
  };
}

/** A raw document (openapi.json/yaml): not enveloped so tools can consume it directly. */
export function documentResponse(
  ctx: RequestContext,
  text: string,
  contentType: string,
  filename: string,
): PlainResponse {
  return {
    status: 200,
    headers: { ...baseHeaders(ctx, contentType), 'content-disposition': `inline; filename="${filename}"` },
    body: text,
  };
}
