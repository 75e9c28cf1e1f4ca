import type { AccessToken } from '../core/context.ts';
import { bodyHash, type CallRecord, createObservations, type StreamRecord } from './observation.ts';

/** A token record for rule tests (15 minutes from `issuedAt`). */
export const testToken = (issuedAt = 0): AccessToken => ({
  clientId: 'app',
  tenants: ['t1'],
  scopes: [],
  environment: 'sandbox',
  issuedAt,
  expiresAt: issuedAt + 900_000,
});

const TOKEN = testToken();
let seq = 0;

/**
 * A call record for rule tests: arrives at `at`, answered `ms` later (default 5), with the given status.
 * @example call({ at: 0, status: 500, key: 'k1', body: '{"a":1}' })
 */
export function call(over: Partial<CallRecord> & { at: number; body?: string; ms?: number }): CallRecord {
  const { body, ms = 5, ...rest } = over;
  return {
    seq: ++seq,
    requestId: `req_${seq}`,
    answeredAt: over.at + ms,
    method: 'GET',
    path: '/api/public/v1/providers',
    key: undefined,
    bodyHash: bodyHash(body === undefined ? undefined : new TextEncoder().encode(body)),
    modifying: over.method !== undefined && over.method !== 'GET',
    status: 200,
    watched: false,
    goneAt: 0,
    connection: 0,
    connectionsAtAnswer: 0,
    connectionIdleMs: 0,
    code: undefined,
    retryAfterMs: undefined,
    version: '2026-07-01',
    contentType: undefined,
    contentEncoding: undefined,
    token: TOKEN,
    ...rest,
  };
}

/** A stream record for rule tests. */
export function stream(over: Partial<StreamRecord> & { at: number }): StreamRecord {
  return {
    requestId: `req_s${++seq}`,
    endedAt: 0,
    cursor: undefined,
    firstId: undefined,
    lastId: undefined,
    lastAt: 0,
    reset: false,
    burstFirstId: undefined,
    closedByClient: false,
    ...over,
  };
}

/** Observations holding these calls and streams for client `app`, tenant `t1`. */
export function observed(calls: CallRecord[], streams: StreamRecord[] = []) {
  const obs = createObservations();
  const b = obs.bucket('app', 't1');
  for (const c of calls) b.calls.push(c);
  for (const s of streams) b.streams.push(s);
  return obs;
}
