// A tiny Hono-like layer over node:http: the context a handler sees, the envelopes, and errors thrown as values.
// On Workers this would be Hono's Context; here it is plain node so the deployment runs without dependencies.
import { randomBytes } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { World } from './world.ts';

export const BASE = '/api/public/v1';
export const CURRENT_VERSION = '2026-07-01';
/** Published versions, oldest first. The delivery log exists from 2026-07-01 on. */
export const VERSIONS = ['2026-06-12', '2026-07-01'];
export const MAX_BODY_BYTES = 64 * 1024;

export interface Ctx {
  req: IncomingMessage;
  res: ServerResponse;
  method: string;
  path: string;
  query: URLSearchParams;
  /** scheme://host of the address the caller used (main or alternate). */
  origin: string;
  requestId: string;
  version: string;
  params: Record<string, string>;
  tenant: string;
  clientId: string;
  /** UTC offset of the timestamps this deployment writes, minutes. */
  utcOffset: number;
  idempotencyKey?: string;
  replayed?: boolean;
}

/** A refusal: thrown anywhere in a handler, answered with the failure envelope. */
export class ApiError extends Error {
  status: number;
  code: string;
  hint: string | undefined;
  detail: string | undefined;
  constructor(status: number, code: string, message: string, hint?: string, detail?: string) {
    super(message);
    this.status = status;
    this.code = code;
    this.hint = hint;
    this.detail = detail;
  }
}

export const invalid = (message: string, hint?: string): ApiError =>
  new ApiError(400, 'invalid_request', message, hint ?? 'Check the request against /api/public/v1/openapi.json.');
export const notFound = (message: string): ApiError =>
  new ApiError(404, 'not_found', message, 'Compare the identifier and the x-service-tenant header.');

/** Cloudflare-ray-like request id: 16 hex digits and the "colo" that served it. */
export function newRayId(): string {
  return `${randomBytes(8).toString('hex')}-OSL`;
}

/** RFC 3339 with the deployment's UTC offset (Z at 0; e.g. +01:00 for a team that stamps Oslo time). */
export function stamp(offsetMinutes: number, ms = Date.now()): string {
  if (offsetMinutes === 0) return new Date(ms).toISOString();
  const local = new Date(ms + offsetMinutes * 60_000).toISOString().slice(0, -1);
  const a = Math.abs(offsetMinutes);
  const off = `${offsetMinutes < 0 ? '-' : '+'}${String(Math.floor(a / 60)).padStart(2, '0')}:${String(a % 60).padStart(2, '0')}`;
  return `${local}${off}`;
}

export function meta(ctx: Ctx): Record<string, unknown> {
  const m: Record<string, unknown> = { requestId: ctx.requestId, version: ctx.version, at: stamp(ctx.utcOffset) };
  if (ctx.idempotencyKey !== undefined) {
    m.idempotencyKey = ctx.idempotencyKey;
    m.replayed = ctx.replayed === true;
  }
  return m;
}

export function sendJson(ctx: Ctx, status: number, body: unknown): void {
  if (ctx.res.headersSent) return;
  const text = JSON.stringify(body);
  ctx.res.statusCode = status;
  ctx.res.setHeader('content-type', 'application/json; charset=utf-8');
  ctx.res.setHeader('content-length', Buffer.byteLength(text));
  ctx.res.end(text);
}

export function sendOk(ctx: Ctx, data: unknown): void {
  sendJson(ctx, 200, { ok: true, data, meta: meta(ctx) });
}

export function sendError(ctx: Ctx, err: ApiError): void {
  const error: Record<string, string> = { code: err.code, message: err.message };
  if (err.detail !== undefined) error.detail = err.detail;
  if (err.hint !== undefined) error.hint = err.hint;
  sendJson(ctx, err.status, { ok: false, error, meta: meta(ctx) });
}

/** Reads the body as UTF-8 text, refusing more than MAX_BODY_BYTES (400: 413 is not in the Errors table). */
export async function readBody(req: IncomingMessage): Promise<string> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of req) {
    const b = chunk as Buffer;
    size += b.length;
    if (size > MAX_BODY_BYTES) throw invalid(`The request body exceeds ${MAX_BODY_BYTES} bytes.`);
    chunks.push(b);
  }
  return Buffer.concat(chunks).toString('utf8');
}

/** JSON object body: anything else is invalid_request (never 415: no endpoint lists it). */
export function parseObject(text: string): Record<string, unknown> {
  if (text.trim() === '') throw invalid('A JSON object body is required.');
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    throw invalid('The body is not valid JSON.');
  }
  if (value === null || typeof value !== 'object' || Array.isArray(value))
    throw invalid('The body must be a JSON object.');
  return value as Record<string, unknown>;
}

/** Canonical JSON (keys sorted at every level): the fingerprint of idempotent calls and of audit entries. */
export function canonical(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonical).join(',')}]`;
  if (value !== null && typeof value === 'object') {
    const obj = value as Record<string, unknown>;
    const keys = Object.keys(obj)
      .filter((k) => obj[k] !== undefined)
      .sort();
    return `{${keys.map((k) => `${JSON.stringify(k)}:${canonical(obj[k])}`).join(',')}}`;
  }
  return JSON.stringify(value);
}

/** Matches "/webhooks/:id/deliveries" against a path; returns the params or undefined. */
export function matchPath(pattern: string, path: string): Record<string, string> | undefined {
  const ps = pattern.split('/');
  const xs = path.split('/');
  if (ps.length !== xs.length) return undefined;
  const params: Record<string, string> = {};
  for (let i = 0; i < ps.length; i++) {
    const p = ps[i] ?? '';
    const x = xs[i] ?? '';
    if (p.startsWith(':')) {
      if (x === '') return undefined;
      try {
        params[p.slice(1)] = decodeURIComponent(x);
      } catch {
        return undefined;
      }
    } else if (p !== x) return undefined;
  }
  return params;
}

// One route of the Worker's router. A modifying route splits into check (pure validation, run before the
// idempotency lookup) and run (the effect, run once per key), so a replay never re-runs the effect.
export type Body = Record<string, unknown>;

export interface Route {
  method: 'GET' | 'POST' | 'DELETE';
  /** Relative to /api/public/v1 ('' is the self-description), params as :name. */
  path: string;
  purpose: string;
  auth: boolean;
  /** 'required': 428 without Idempotency-Key; 'honoured': replayed when sent; 'none': reads. */
  key: 'required' | 'honoured' | 'none';
  /** First version that has the route (the delivery log came with 2026-07-01). */
  since?: string;
  /** Served only with (flat) or without (nested) the flatDeliveryLog option. */
  layout?: 'flat' | 'nested';
  /** Part of the interface's own endpoint table (the rest are willow's additions). */
  contract?: boolean;
  check?: (ctx: Ctx, w: World, body: Body) => unknown;
  run: (ctx: Ctx, w: World, input: unknown) => unknown;
  /** What a replay shows instead of the stored data (the signing key is shown once only). */
  onReplay?: (data: unknown) => unknown;
  /** Takes over the response (the event stream). */
  raw?: boolean;
}
