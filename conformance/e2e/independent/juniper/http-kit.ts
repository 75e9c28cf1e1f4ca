// Response helpers: the envelopes, the request id header (nginx's $request_id, a UUID, passed to Rails
// and echoed as X-Request-Id) and JSON body reading. Every JSON answer goes through sendJson.
import type { IncomingMessage, ServerResponse } from 'node:http';
import { nowIso } from './catalog.ts';
import { type Ctx, HttpError } from './types.ts';

const MAX_BODY_BYTES = 1024 * 1024;

export type MetaExtra = { idempotencyKey?: string; replayed?: boolean };

export function meta(ctx: Ctx, extra: MetaExtra = {}): Record<string, unknown> {
  const m: Record<string, unknown> = { requestId: ctx.requestId, version: ctx.version, at: nowIso() };
  if (extra.idempotencyKey !== undefined) m.idempotencyKey = extra.idempotencyKey;
  if (extra.replayed !== undefined) m.replayed = extra.replayed;
  return m;
}

export function writeJson(res: ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}) {
  if (res.headersSent) return;
  const text = JSON.stringify(body);
  res.writeHead(status, {
    'Content-Type': 'application/json; charset=utf-8',
    'Content-Length': Buffer.byteLength(text),
    'Cache-Control': 'no-store',
    ...headers,
  });
  res.end(text);
}

function baseHeaders(ctx: Ctx): Record<string, string> {
  // X-Runtime as Rails sends it (seconds, 6 decimals); no Server header (nginx server_tokens off).
  return {
    ...ctx.rateHeaders,
    'X-Request-Id': ctx.requestId,
    'X-Runtime': ((Date.now() - ctx.started) / 1000).toFixed(6),
  };
}

export function sendOk(ctx: Ctx, data: unknown, extra: MetaExtra = {}, headers: Record<string, string> = {}) {
  writeJson(ctx.res, 200, { ok: true, data, meta: meta(ctx, extra) }, { ...baseHeaders(ctx), ...headers });
}

export function sendError(ctx: Ctx, err: HttpError, extra: MetaExtra = {}) {
  const error: Record<string, string> = { code: err.code, message: err.message };
  if (err.detail !== undefined) error.detail = err.detail;
  if (err.hint !== undefined) error.hint = err.hint;
  writeJson(ctx.res, err.status, { ok: false, error, meta: meta(ctx, extra) }, baseHeaders(ctx));
}

export const invalid = (message: string, detail?: string): HttpError =>
  new HttpError(400, 'invalid_request', message, detail, 'Check the request against the published description.');

export function readRaw(req: IncomingMessage): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    req.on('data', (chunk: Buffer) => {
      size += chunk.length;
      if (size <= MAX_BODY_BYTES) chunks.push(chunk);
    });
    req.on('end', () => {
      if (size > MAX_BODY_BYTES) reject(invalid('The request body is too large.', 'At most 1 MiB is accepted.'));
      else resolve(Buffer.concat(chunks));
    });
    req.on('error', reject);
  });
}

// A JSON object body is required on every POST of the interface; a form or another media type is refused
// with 400 (Rails would parse a form, but this API is JSON only).
export async function readJsonObject(ctx: Ctx): Promise<Record<string, unknown>> {
  const raw = await readRaw(ctx.req);
  const type = String(ctx.req.headers['content-type'] ?? '').toLowerCase();
  if (raw.length === 0) throw invalid('A JSON body is required.');
  if (type !== '' && !type.startsWith('application/json') && !/^application\/[a-z0-9.+-]*\+json/.test(type)) {
    throw invalid('The body must be JSON.', 'Send Content-Type: application/json.');
  }
  let parsed: unknown;
  try {
    parsed = JSON.parse(raw.toString('utf8'));
  } catch {
    throw invalid('The body is not valid JSON.');
  }
  if (parsed === null || typeof parsed !== 'object' || Array.isArray(parsed)) {
    throw invalid('The body must be a JSON object.');
  }
  return parsed as Record<string, unknown>;
}

// Drains a body nobody reads, so keep-alive connections stay usable.
export function drain(req: IncomingMessage): Promise<void> {
  return new Promise((resolve) => {
    if (req.readableEnded) resolve();
    req.on('end', () => resolve());
    req.on('error', () => resolve());
    req.resume();
  });
}

// The address the caller used, so links (token endpoint, Link headers) name the base URL that was called.
export function origin(ctx: Ctx): string {
  return `http://${ctx.req.headers.host ?? '127.0.0.1'}`;
}
