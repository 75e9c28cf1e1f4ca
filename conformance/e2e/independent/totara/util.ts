// totara: small helpers in the team's habits: cuid ids (Prisma `@default(cuid())`), Fastify's `req-<n>` request ids,
// ISO times as Prisma returns them, key-sorted JSON for fingerprints and hashes.
import { createHash, randomBytes } from 'node:crypto';
import type { IncomingMessage } from 'node:http';
import { HttpError } from './types.ts';

let counter = Math.floor(Math.random() * 1296);
let requests = 0;

/** A cuid (v1 shape): `c`, time, counter, fingerprint and random blocks in base 36, 25 characters. */
export function cuid(): string {
  counter = (counter + 1) % 1679616;
  const time = Date.now().toString(36).padStart(8, '0').slice(-8);
  const count = counter.toString(36).padStart(4, '0');
  const fingerprint = `${(process.pid % 1296).toString(36).padStart(2, '0')}tt`;
  const random = BigInt(`0x${randomBytes(6).toString('hex')}`)
    .toString(36)
    .padStart(8, '0')
    .slice(-8);
  return `c${time}${count}${fingerprint}${random}`;
}

/** Fastify's default genReqId: `req-` and a base-36 counter. */
export function requestId(): string {
  requests += 1;
  return `req-${requests.toString(36)}`;
}

export const now = (): string => new Date().toISOString();

export function sha256(text: string | Buffer): string {
  return createHash('sha256').update(text).digest('hex');
}

/** JSON with object keys sorted at every level (the fingerprint of a request body). */
export function sortedJson(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(sortedJson).join(',')}]`;
  if (value !== null && typeof value === 'object') {
    const entries = Object.entries(value as Record<string, unknown>)
      .filter(([, v]) => v !== undefined)
      .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
    return `{${entries.map(([k, v]) => `${JSON.stringify(k)}:${sortedJson(v)}`).join(',')}}`;
  }
  return JSON.stringify(value) ?? 'null';
}

/** Reads the raw body (at most 1 MiB, as Fastify's bodyLimit). */
export function readBody(req: IncomingMessage): Promise<string> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    req.on('data', (chunk: Buffer) => {
      size += chunk.length;
      if (size > 1_048_576) {
        reject(new HttpError(400, 'invalid_request', 'Request body is too large', 'FST_ERR_CTP_BODY_TOO_LARGE'));
        req.destroy();
        return;
      }
      chunks.push(chunk);
    });
    req.on('end', () => resolve(Buffer.concat(chunks).toString('utf8')));
    req.on('error', reject);
  });
}

/** A header's single value (node lower-cases names; a repeated header counts as its first value). */
export function header(req: IncomingMessage, name: string): string | undefined {
  const v = req.headers[name];
  return Array.isArray(v) ? v[0] : v;
}

export const isLoopbackHost = (host: string): boolean =>
  ['127.0.0.1', 'localhost', '[::1]', '::1'].includes(host.toLowerCase());
