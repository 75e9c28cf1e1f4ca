import { randomBytes } from 'node:crypto';
import type { ProxyAnswer, ProxyCall, UnseenViolation } from './proxy.ts';
import { P } from './proxy-helpers.ts';

/**
 * Round 21 of the unseen violations, part 2: inputs — over-long Idempotency-Keys clamped to 128
 * characters and accepted, over-long check fields clamped to 120 and decided, keys with a colon echoed
 * percent-encoded in meta, and cursors beyond a 32-bit integer refused.
 */
const isStream = (c: ProxyCall) => c.method === 'GET' && c.path === P('/stream');
const keyed = (c: ProxyCall) => c.method === 'POST' && (c.path === P('/connections') || c.path === P('/webhooks'));
/** A failure envelope made up by the deployment itself (the proxy answers before the simulator). */
const failure = (status: number, code: string, message: string): ProxyAnswer => {
  const requestId = `req_${randomBytes(8).toString('hex')}`;
  return {
    status,
    headers: { 'content-type': 'application/json; charset=utf-8', 'x-request-id': requestId },
    json: {
      ok: false,
      error: { code, message },
      meta: { requestId, version: '2026-07-01', at: new Date().toISOString() },
    },
  };
};

export const ROUND21_INPUTS: UnseenViolation[] = [
  {
    name: 'overlong-key-clamped-to-128',
    statement:
      'Limits: Idempotency-Key | pattern ^[A-Za-z0-9._:-]{8,128}$ (8 to 128 characters of letters, digits, dot, underscore, colon, hyphen)',
    request(c) {
      // A header normaliser clamps the key to the column width before the validator sees it.
      const key = c.headers['idempotency-key'];
      if (keyed(c) && key && key.length > 128) c.headers['idempotency-key'] = key.slice(0, 128);
      return undefined;
    },
  },
  {
    name: 'check-fields-over-120-clamped',
    statement:
      'POST /api/public/v1/capabilities: connectorId | string | yes | length 2 to 120; capability | length 2 to 120',
    request(c) {
      // The check's input mapper truncates text fields to the column width instead of refusing them.
      if (c.method !== 'POST' || c.path !== P('/capabilities') || !c.body || typeof c.body !== 'object')
        return undefined;
      const body = { ...(c.body as Record<string, unknown>) };
      let changed = false;
      for (const f of ['connectorId', 'capability'])
        if (typeof body[f] === 'string' && (body[f] as string).length > 120) {
          body[f] = (body[f] as string).slice(0, 120);
          changed = true;
        }
      if (changed) c.body = body;
      return undefined;
    },
  },
  {
    name: 'key-echo-colon-percent-encoded',
    statement: 'Meta: idempotencyKey | string | no | the key used for the call',
    answer(_c, a) {
      // The key is kept URL-encoded (it doubles as a cache path segment) and echoed from there.
      const key = a.json.meta?.idempotencyKey;
      if (typeof key === 'string' && key.includes(':')) a.json.meta.idempotencyKey = encodeURIComponent(key);
    },
  },
  {
    name: 'cursor-beyond-int32-refused',
    statement: 'Limits: cursor | integer, minimum 0 — GET /api/public/v1/stream: cursor | query | integer, minimum 0',
    request(c) {
      // The stream's sequence column is a 32-bit integer and the parser refuses anything wider.
      if (!isStream(c)) return undefined;
      const cursor = c.search.get('cursor') ?? c.headers['last-event-id'];
      if (cursor === undefined || cursor === null || !/^\d+$/.test(cursor.trim())) return undefined;
      if (Number(cursor) <= 2147483647) return undefined;
      return failure(400, 'invalid_request', 'The request is incomplete or unsuitable.');
    },
  },
];
