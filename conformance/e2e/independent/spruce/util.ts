// Small helpers shared by every module: ids, .NET-style timestamps and canonical JSON (used by the
// idempotency fingerprint and the audit chain, so both hash the same bytes for the same content).
import { createHash, randomUUID } from 'node:crypto';

export const CURRENT_VERSION = '2026-07-01';
export const VERSIONS = ['2026-06-12', '2026-07-01'] as const;
export const ENVIRONMENTS = ['development', 'sandbox', 'pilot', 'production'] as const;

/** Cosmos DB documents are keyed by GUIDs; we keep that for every id we mint. */
export function newId(): string {
  return randomUUID();
}

/** ASP.NET / Azure services print seven fractional digits (ticks); RFC 3339 allows any precision. */
export function azureTime(ms: number = Date.now()): string {
  return new Date(ms).toISOString().replace(/\.(\d{3})Z$/, '.$10000Z');
}

/** JSON with object keys sorted at every depth: the same content always gives the same text. */
export function canonicalJson(value: unknown): string {
  if (value === null || typeof value !== 'object') return JSON.stringify(value) ?? 'null';
  if (Array.isArray(value)) return `[${value.map(canonicalJson).join(',')}]`;
  const obj = value as Record<string, unknown>;
  const keys = Object.keys(obj)
    .filter((k) => obj[k] !== undefined)
    .sort();
  return `{${keys.map((k) => `${JSON.stringify(k)}:${canonicalJson(obj[k])}`).join(',')}}`;
}

/** Our times end in seven digits and Z; DateTimeOffset style writes the same instant as +00:00. */
export function offsetTimes(text: string): string {
  return text.replace(/(T\d{2}:\d{2}:\d{2}\.\d{7})Z"/g, '$1+00:00"');
}

export function sha256Hex(text: string): string {
  return createHash('sha256').update(text, 'utf8').digest('hex');
}

/** Lengths in the contract count characters, not UTF-16 units or bytes. */
export function charLength(s: string): number {
  return [...s].length;
}
