// Small helpers: ids, times with milliseconds, hashing, RFC 8785 style canonical JSON, the HttpException the
// failure handler maps to the envelope, and the body handler (size limit, JSON parsing).
import { createHash, randomUUID } from 'node:crypto';
import type { IncomingMessage } from 'node:http';

export const API = '/api/public/v1';
export const CURRENT_VERSION = '2026-07-01';
export const VERSIONS: readonly string[] = ['2026-07-01', '2026-06-12'];
export const SERVICE = 'network-connections-service';
export const BODY_LIMIT = 1024 * 1024;

export const uuid = (): string => randomUUID();
export const isoNow = (): string => new Date().toISOString();
export const sha256Hex = (text: string): string => createHash('sha256').update(text).digest('hex');

/** Canonical JSON (sorted members, no whitespace): RFC 8785 for the strings, integers and objects almond writes. */
export function canonicalJson(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonicalJson).join(',')}]`;
  if (value !== null && typeof value === 'object') {
    const entries = Object.entries(value as Record<string, unknown>)
      .filter(([, v]) => v !== undefined)
      .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
    return `{${entries.map(([k, v]) => `${JSON.stringify(k)}:${canonicalJson(v)}`).join(',')}}`;
  }
  return JSON.stringify(value ?? null);
}

/** Vert.x's HttpException, carrying the interface's error code. */
export class HttpException extends Error {
  readonly statusCode: number;
  readonly code: string;
  readonly detail: string | undefined;
  readonly hint: string | undefined;
  readonly headers: Record<string, string>;
  constructor(statusCode: number, code: string, message: string, detail?: string, hint?: string) {
    super(message);
    this.statusCode = statusCode;
    this.code = code;
    this.detail = detail;
    this.hint = hint;
    this.headers = {};
  }
}

export const badRequest = (detail: string) =>
  new HttpException(
    400,
    'invalid_request',
    'Bad Request',
    detail,
    'Check the request against the published description',
  );
export const notFound = (detail = 'Resource not found') =>
  new HttpException(404, 'not_found', 'Not Found', detail, 'Compare identifier and tenant header');
export const unauthorized = (detail: string) =>
  new HttpException(401, 'unauthorized', 'Unauthorized', detail, 'Request a new access token, check the environment');
export const forbidden = (detail: string) =>
  new HttpException(403, 'forbidden', 'Forbidden', detail, 'Check the permissions of the access');
export const conflict = (code: 'capability_denied' | 'idempotency_conflict', detail: string, hint: string) =>
  new HttpException(409, code, 'Conflict', detail, hint);

/** Reads the whole body (BodyHandler with a 1 MiB limit); the caller parses it. */
export function readBody(req: IncomingMessage): Promise<string> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    let tooLarge = false;
    req.on('data', (chunk: Buffer) => {
      size += chunk.length;
      if (size > BODY_LIMIT) tooLarge = true;
      else chunks.push(chunk);
    });
    req.on('end', () => {
      if (tooLarge) reject(badRequest(`Request Entity Too Large: body exceeds ${BODY_LIMIT} bytes`));
      else resolve(Buffer.concat(chunks).toString('utf8'));
    });
    req.on('error', reject);
  });
}

/** BodyHandler's JSON decoding: an empty body is undefined, a malformed one a 400. */
export function parseJson(raw: string): unknown {
  if (raw.trim() === '') return undefined;
  try {
    return JSON.parse(raw);
  } catch {
    throw badRequest('Invalid JSON in body: failed to decode');
  }
}

/** Validation of a JSON object body in the style of Vert.x's ValidationHandler messages. */
export function objectBody(body: unknown): Record<string, unknown> {
  if (body === null || typeof body !== 'object' || Array.isArray(body))
    throw badRequest('Validation error for body application/json: input should be an object');
  return body as Record<string, unknown>;
}

export function stringField(
  body: Record<string, unknown>,
  name: string,
  min: number,
  max: number,
  required = true,
): string | undefined {
  const value = body[name];
  if (value === undefined || value === null) {
    if (required)
      throw badRequest(`Validation error for body application/json: provided object should contain property ${name}`);
    return undefined;
  }
  if (typeof value !== 'string')
    throw badRequest(`Validation error for body application/json: ${name} should be a string`);
  if (value.length < min || value.length > max)
    throw badRequest(`Validation error for body application/json: ${name} length should be between ${min} and ${max}`);
  return value;
}
