// Small helpers: nanoid ids, times, canonical JSON, body reading, API errors.
import { createHash, randomBytes } from 'node:crypto';
import type { IncomingMessage } from 'node:http';
import type { ApiErrorBody, Reply } from './types.ts';

const ALPHABET = 'useandom-26T198340PX75pxJACKVERYMINDBUSHWOLF_GQZbfghjklqvwyzrict';

/** nanoid(size): url-safe random id, 21 characters by default. */
export function nanoid(size = 21): string {
  const bytes = randomBytes(size);
  let id = '';
  for (const b of bytes) id += ALPHABET[b & 63];
  return id;
}

/** Prisma-like DateTime: ISO 8601 with milliseconds, UTC. */
export function isoNow(ms = Date.now()): string {
  return new Date(ms).toISOString();
}

/** RFC 8785-compatible JSON for the values medlar stores (strings, integers, booleans, null, arrays, objects). */
export function canonical(value: unknown): string {
  if (value === null || typeof value !== 'object') return JSON.stringify(value);
  if (Array.isArray(value)) return `[${value.map(canonical).join(',')}]`;
  const entries = Object.entries(value as Record<string, unknown>)
    .filter(([, v]) => v !== undefined)
    .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
  return `{${entries.map(([k, v]) => `${JSON.stringify(k)}:${canonical(v)}`).join(',')}}`;
}

export function sha256Hex(input: string | Buffer): string {
  return createHash('sha256').update(input).digest('hex');
}

export class ApiError extends Error {
  status: number;
  body: ApiErrorBody;
  headers: Record<string, string>;
  constructor(status: number, code: string, message: string, hint?: string, headers: Record<string, string> = {}) {
    super(message);
    this.status = status;
    this.body = hint ? { code, message, hint } : { code, message };
    this.headers = headers;
  }
}

export const ok = (data: unknown, headers?: Record<string, string>): Reply =>
  headers ? { status: 200, data, headers } : { status: 200, data };

export const invalid = (message: string, hint?: string) => new ApiError(400, 'invalid_request', message, hint);
export const notFound = (message = 'The entry does not exist.') =>
  new ApiError(404, 'not_found', message, 'Compare the identifier and the tenant header.');

export async function readRaw(req: IncomingMessage, max = 1_000_000): Promise<string> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of req) {
    size += (chunk as Buffer).length;
    if (size > max) throw invalid('The request body is too large.');
    chunks.push(chunk as Buffer);
  }
  return Buffer.concat(chunks).toString('utf8');
}

/** The JSON body of a POST: an object, else 400. */
export function parseJsonObject(raw: string): Record<string, unknown> {
  if (raw.trim() === '') throw invalid('A JSON body is required.');
  let parsed: unknown;
  try {
    parsed = JSON.parse(raw);
  } catch {
    throw invalid('The body is not valid JSON.');
  }
  if (parsed === null || typeof parsed !== 'object' || Array.isArray(parsed)) {
    throw invalid('The body must be a JSON object.');
  }
  return parsed as Record<string, unknown>;
}

/** A required string field of length min..max, else 400 naming the field. */
export function str(body: Record<string, unknown>, field: string, min: number, max: number): string {
  const v = body[field];
  if (v === undefined || v === null) throw invalid(`Field ${field} is required.`);
  if (typeof v !== 'string') throw invalid(`Field ${field} must be a string.`);
  if (v.length < min || v.length > max) throw invalid(`Field ${field} must have length ${min} to ${max}.`);
  return v;
}

export const ENVIRONMENTS = ['development', 'sandbox', 'pilot', 'production'] as const;
export type Environment = (typeof ENVIRONMENTS)[number];

export function environment(v: unknown, field = 'environment'): Environment {
  if (typeof v !== 'string' || !(ENVIRONMENTS as readonly string[]).includes(v)) {
    throw invalid(`Field ${field} must be one of ${ENVIRONMENTS.join(', ')}.`);
  }
  return v as Environment;
}
