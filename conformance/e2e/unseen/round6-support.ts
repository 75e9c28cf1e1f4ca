import { randomUUID } from 'node:crypto';
import { SUPPORTED_VERSIONS } from '../../../simulator/contract/versions.ts';
import type { ProxyAnswer, ProxyCall } from './proxy.ts';

// What the round-6 lists share: answers a deployment makes up itself (without asking the simulator),
// and a body read as an object. Kept apart so each list file holds only its violations.

/** A request identifier in the simulator's style, so a made-up answer looks like any other. */
export const newRequestId = () => `req_${randomUUID().replaceAll('-', '').slice(0, 16)}`;

/** The meta a deployment would send for this call (the version it was asked for, or the current one). */
export function metaFor(c: ProxyCall, extra: Record<string, unknown> = {}) {
  const asked = c.headers['service-version'];
  const version = asked && (SUPPORTED_VERSIONS as readonly string[]).includes(asked) ? asked : SUPPORTED_VERSIONS[0];
  return { requestId: newRequestId(), version, at: new Date().toISOString(), ...extra };
}

/** Notes the rate-limit headers of a passing answer, so a made-up answer for the tenant can carry them too. */
export function rememberLimits(c: ProxyCall, a: ProxyAnswer) {
  const limit = a.headers['x-ratelimit-limit'];
  const left = a.headers['x-ratelimit-remaining'];
  if (limit === undefined || left === undefined) return;
  c.memory.set(`limits:${c.headers['x-service-tenant'] ?? ''}`, { limit, left: Number(left) });
  c.memory.set('limits:any', limit);
}

/** A complete answer made up by the deployment (counted like any other); the simulator never sees the call. */
export function madeUp(c: ProxyCall, status: number, json: Record<string, unknown>): ProxyAnswer {
  const meta = json.meta as { requestId: string };
  const headers: Record<string, string> = {
    'content-type': 'application/json; charset=utf-8',
    'x-request-id': meta.requestId,
  };
  const slot = `limits:${c.headers['x-service-tenant'] ?? ''}`;
  // A tenant not seen yet starts a fresh window of the same limit.
  const any = c.memory.get('limits:any') as string | undefined;
  const known =
    (c.memory.get(slot) as { limit: string; left: number } | undefined) ??
    (any !== undefined ? { limit: any, left: Number(any) } : undefined);
  if (known) {
    const left = Math.max(0, known.left - 1);
    c.memory.set(slot, { ...known, left });
    Object.assign(headers, { 'x-ratelimit-limit': known.limit, 'x-ratelimit-remaining': String(left) });
  }
  return { status, headers, json };
}

/** A failure envelope made up by the deployment for `code`. */
export function failure(c: ProxyCall, status: number, code: string, message: string, detail?: string) {
  const key = c.headers['idempotency-key'];
  return madeUp(c, status, {
    ok: false,
    error: { code, message, ...(detail ? { detail } : {}) },
    meta: metaFor(c, key ? { idempotencyKey: key } : {}),
  });
}

/** The JSON body as an object, or undefined. */
export const bodyOf = (c: ProxyCall) =>
  c.body && typeof c.body === 'object' && !Array.isArray(c.body) ? (c.body as Record<string, unknown>) : undefined;

/** JSON text with every object's keys sorted: two bodies with the same content give the same text. */
export const sortedText = (v: unknown): string => JSON.stringify(sortKeys(v));
function sortKeys(v: unknown): unknown {
  if (Array.isArray(v)) return v.map(sortKeys);
  if (!v || typeof v !== 'object') return v;
  return Object.fromEntries(
    Object.entries(v as Record<string, unknown>)
      .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
      .map(([k, x]) => [k, sortKeys(x)]),
  );
}
