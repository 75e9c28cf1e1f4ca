import type { Meta } from '../contract/envelope.ts';
import { isoTime } from '../lib/iso-time.ts';
import type { ApiError } from './api-error.ts';
import type { RequestContext } from './context.ts';
import type { PlainResponse } from './types.ts';

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
  return enveloped(ctx, { status, ok: true, payload: dataJson });
}

/** The failure envelope for an ApiError; never carries internals. */
export function failure(ctx: RequestContext, err: ApiError): PlainResponse {
  const res = enveloped(ctx, errorPayload(err));
  Object.assign(res.headers, err.headers);
  return res;
}

/**
 * The part of an enveloped answer that an idempotency record keeps: status and the JSON text of
 * `data` (ok) or `error` (failure). `meta` is never kept: a replay gets its own.
 */
export interface EnvelopePayload {
  status: number;
  ok: boolean;
  payload: string;
}

/**
 * The payload an answer written here was built from, kept on the answer itself so an idempotency
 * record holds that string and not a slice of the whole body (a slice keeps the body alive: 35 MB
 * more heap at 200,000 records).
 */
const PAYLOAD = Symbol('envelope payload');
type EnvelopedResponse = PlainResponse & { [PAYLOAD]?: EnvelopePayload };

/** One envelope writer for fresh answers and replays alike. */
function enveloped(ctx: RequestContext, p: EnvelopePayload): PlainResponse {
  const res: EnvelopedResponse = {
    status: p.status,
    headers: baseHeaders(ctx, JSON_TYPE),
    body: `{"ok":${p.ok},"${p.ok ? 'data' : 'error'}":${p.payload},"meta":${metaJson(ctx)}}`,
  };
  res[PAYLOAD] = p;
  return res;
}

/**
 * The stored form of a failure (its `error` member).
 * @example errorPayload(new ApiError('not_found')) // { status: 404, ok: false, payload: '{"code":"not_found",...}' }
 */
export function errorPayload(err: ApiError): EnvelopePayload {
  const error: Record<string, string> = { code: err.code, message: err.message };
  if (err.detail) error.detail = err.detail;
  error.hint = err.hint;
  return { status: err.status, ok: false, payload: JSON.stringify(error) };
}

const DATA_PREFIX = '{"ok":true,"data":';
const META_MARK = ',"meta":';

/**
 * The stored form of a success answer: its `data` JSON cut out of the text this module wrote
 * (no re-parse). Inside JSON strings every quote is escaped, so the last `,"meta":` is meta's own key.
 * @example successPayload(success(ctx, { id: 'c1' }))?.payload // '{"id":"c1"}'
 */
export function successPayload(res: PlainResponse): EnvelopePayload | undefined {
  const body = res.body;
  if (res.status < 200 || res.status >= 300 || body === undefined) return undefined;
  const own = (res as EnvelopedResponse)[PAYLOAD];
  // Only while the body is still the one written here (a wrapper may have replaced it).
  if (own?.ok && own.status === res.status && body.startsWith(own.payload, DATA_PREFIX.length)) return own;
  const end = body.lastIndexOf(META_MARK);
  const payload = body.startsWith(DATA_PREFIX) && end > 0 ? body.slice(DATA_PREFIX.length, end) : undefined;
  return payload === undefined ? undefined : { status: res.status, ok: true, payload };
}

/**
 * A stored answer again, in a fresh envelope: this request's requestId and time, meta.replayed.
 * @example return replay(ctx, { status: 200, ok: true, payload: '{"id":"c1"}' });
 */
export function replay(ctx: RequestContext, stored: EnvelopePayload): PlainResponse {
  ctx.replayed = true;
  return enveloped(ctx, stored);
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
