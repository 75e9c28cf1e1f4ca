import type { Meta } from '../contract/envelope.ts';
import { isoTime } from '../lib/iso-time.ts';
import type { ApiError } from './api-error.ts';
import type { RequestContext } from './context.ts';
import { type DataReply, isDataReply, type RawReply, type Reply } from './reply.ts';
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

// nosniff: answers echo what a caller sent (a tenant, a client filter) and share their origin with the
// inspector page; a browser must never read them as anything but their declared type.
function baseHeaders(ctx: RequestContext, contentType: string): Record<string, string> {
  return {
    'content-type': contentType,
    'x-content-type-options': 'nosniff',
    'x-request-id': ctx.requestId,
    ...ctx.responseHeaders,
  };
}

/**
 * The one envelope writer: a data reply in the success envelope (fresh or replayed: meta says which),
 * a raw reply unchanged.
 * @example writeReply(ctx, ok({ id: 'c1' })).body // '{"ok":true,"data":{"id":"c1"},"meta":{...}}'
 */
export function writeReply(ctx: RequestContext, reply: Reply): PlainResponse {
  return isDataReply(reply) ? writeData(ctx, reply) : reply.raw;
}

function writeData(ctx: RequestContext, reply: DataReply): PlainResponse {
  const json = reply.json ?? JSON.stringify(reply.data);
  // `undefined` data (a handler answering nothing) still gets a valid envelope: data {}.
  return {
    status: reply.status,
    headers: baseHeaders(ctx, JSON_TYPE),
    body: `{"ok":true,"data":${json ?? '{}'},"meta":${metaJson(ctx)}}`,
  };
}

/** The `error` member of a failure envelope: what a failure answer says, and what an idempotency record keeps of one. */
export interface ErrorValue {
  code: ApiError['code'];
  message: string;
  detail?: string;
  hint: string;
}

/**
 * The error member of an ApiError (never internals).
 * @example errorValue(new ApiError('not_found')) // { code: 'not_found', message: '...', hint: '...' }
 */
export function errorValue(err: ApiError): ErrorValue {
  // Key order as the interface's table lists it: code, message, detail, hint.
  return err.detail
    ? { code: err.code, message: err.message, detail: err.detail, hint: err.hint }
    : { code: err.code, message: err.message, hint: err.hint };
}

/** The failure envelope for an ApiError; never carries internals. */
export function failure(ctx: RequestContext, err: ApiError): PlainResponse {
  const res: PlainResponse = {
    status: err.status,
    headers: baseHeaders(ctx, JSON_TYPE),
    body: `{"ok":false,"error":${JSON.stringify(errorValue(err))},"meta":${metaJson(ctx)}}`,
  };
  Object.assign(res.headers, err.headers);
  return res;
}

/**
 * A raw document (openapi.json/yaml): not enveloped so tools can consume it directly.
 * @example return documentReply(ctx, text, 'application/json; charset=utf-8', 'ncs-openapi.json');
 */
export function documentReply(ctx: RequestContext, text: string, contentType: string, filename: string): RawReply {
  return {
    raw: {
      status: 200,
      headers: { ...baseHeaders(ctx, contentType), 'content-disposition': `inline; filename="${filename}"` },
      body: text,
    },
  };
}
