// The Exchange (Camel's unit of work ported to node:http), its ids, ISO times with offsets, the envelopes and the
// exception an `onException` clause maps to the failure envelope.
import type { IncomingMessage, ServerResponse } from 'node:http';
import { hostname } from 'node:os';

export const CURRENT_VERSION = '2026-07-01';
export const VERSIONS = ['2026-07-01', '2026-06-12'] as const;

const STARTED = Date.now();
let counter = 0;
const HOST = hostname().replace(/[^A-Za-z0-9-]/g, '') || 'kauri';
/** Camel's exchange id form: ID-<host>-<start millis>-0-<counter>. */
export function exchangeId(): string {
  counter += 1;
  return `ID-${HOST}-${STARTED}-0-${counter}`;
}

let zoneMinutes = 0;
export function setZoneOffset(minutes: number): void {
  zoneMinutes = minutes;
}
/** ISO 8601 with an explicit offset (`+00:00`, never `Z`), as java.time.OffsetDateTime prints it. */
export function isoNow(ms: number = Date.now()): string {
  const local = new Date(ms + zoneMinutes * 60_000).toISOString().slice(0, 23);
  const sign = zoneMinutes < 0 ? '-' : '+';
  const abs = Math.abs(zoneMinutes);
  return `${local}${sign}${String(Math.floor(abs / 60)).padStart(2, '0')}:${String(abs % 60).padStart(2, '0')}`;
}

export interface Exchange {
  id: string;
  breadcrumbId: string;
  req: IncomingMessage;
  res: ServerResponse;
  method: string;
  path: string;
  query: URLSearchParams;
  params: Record<string, string>;
  version: string;
  body: unknown;
  clientId?: string;
  tenant?: string;
  idempotencyKey?: string;
  headers: Record<string, string>;
}

export type ErrorCode =
  | 'unauthorized'
  | 'forbidden'
  | 'not_found'
  | 'invalid_request'
  | 'capability_denied'
  | 'idempotency_conflict'
  | 'idempotency_required'
  | 'rate_limited'
  | 'internal';

export const STATUS: Record<ErrorCode, number> = {
  unauthorized: 401,
  forbidden: 403,
  not_found: 404,
  invalid_request: 400,
  capability_denied: 409,
  idempotency_conflict: 409,
  idempotency_required: 428,
  rate_limited: 429,
  internal: 500,
};

/** What a route throws; the onException clause turns it into the failure envelope. */
export class CamelRouteException extends Error {
  readonly code: ErrorCode;
  readonly detail: string | undefined;
  readonly hint: string | undefined;
  constructor(code: ErrorCode, message: string, detail?: string, hint?: string) {
    super(message);
    this.code = code;
    this.detail = detail;
    this.hint = hint;
  }
}

export function meta(ex: Exchange, extra: { idempotencyKey?: string; replayed?: boolean } = {}) {
  return { requestId: ex.id, version: ex.version, at: isoNow(), ...extra };
}

export function send(ex: Exchange, status: number, body: unknown, headers: Record<string, string> = {}): void {
  if (ex.res.headersSent) return;
  const text = JSON.stringify(body);
  ex.res.writeHead(status, {
    'content-type': 'application/json; charset=utf-8',
    'content-length': Buffer.byteLength(text),
    breadcrumbId: ex.breadcrumbId,
    'service-version': ex.version,
    ...ex.headers,
    ...headers,
  });
  ex.res.end(text);
}

export function sendError(ex: Exchange, err: CamelRouteException): void {
  const error: Record<string, string> = { code: err.code, message: err.message };
  if (err.detail) error.detail = err.detail;
  if (err.hint) error.hint = err.hint;
  send(ex, STATUS[err.code], { ok: false, error, meta: meta(ex) });
}

/** Canonical JSON (sorted keys) of a value, for idempotency fingerprints. */
export function canonical(v: unknown): string {
  if (Array.isArray(v)) return `[${v.map(canonical).join(',')}]`;
  if (v && typeof v === 'object') {
    const o = v as Record<string, unknown>;
    return `{${Object.keys(o)
      .sort()
      .map((k) => `${JSON.stringify(k)}:${canonical(o[k])}`)
      .join(',')}}`;
  }
  return JSON.stringify(v ?? null);
}
