import { describe, expect, it } from 'vitest';
import type { Exchange } from '../client/http-client.ts';
import { routeOf, sentCredentials } from './exchange-scope.ts';
import { idempotencyKeyEchoRule } from './generated-rules.ts';

const BASE = 'http://127.0.0.1:4010';
function ex(method: string, path: string, status: number, json: unknown, key?: string): Exchange {
  return {
    method,
    url: `${BASE}/api/public/v1${path}`,
    requestHeaders: { 'x-service-tenant': 't1', ...(key ? { 'Idempotency-Key': key } : {}) },
    status,
    headers: { 'content-type': 'application/json' },
    text: JSON.stringify(json),
    json,
    durationMs: 1,
    attempts: 1,
  };
}
const judge = (e: Exchange) =>
  idempotencyKeyEchoRule(e, { route: routeOf(e, [BASE])!, authenticated: sentCredentials(e), secrets: [] });
const meta = (extra: Record<string, unknown> = {}) => ({ requestId: 'r', version: '2026-07-01', at: 'x', ...extra });
const conflict = (m: Record<string, unknown>) => ({
  ok: false,
  error: { code: 'idempotency_conflict', message: 'm' },
  meta: meta(m),
});

describe('idempotency-key-echo: meta.idempotencyKey is the key used for the call', () => {
  it('holds the sent key on a creation and its replay', () => {
    const ok = { ok: true, data: {}, meta: meta({ idempotencyKey: 'key-12345678', replayed: true }) };
    expect(judge(ex('POST', '/connections', 200, ok, 'key-12345678'))).toBeUndefined();
    expect(judge(ex('POST', '/connections', 200, ok, 'key-other-000'))).toMatch(/the key sent was/);
  });

  it('refuses a key reported on a read sent without one (another call key sticking)', () => {
    const read = { ok: true, data: { count: 0, connections: [] }, meta: meta({ idempotencyKey: 'key-12345678' }) };
    expect(judge(ex('GET', '/connections', 200, read))).toMatch(/on a GET sent without an Idempotency-Key/);
    expect(judge(ex('GET', '/connections', 200, { ok: true, data: {}, meta: meta() }))).toBeUndefined();
  });

  it('refuses the key an answer issues reported as the key used (POST /idempotency-keys sent without one)', () => {
    const issued = { idempotencyKey: 'key-issued-0001', operation: 'connection.create', expiresAt: 'x' };
    const echoed = { ok: true, data: issued, meta: meta({ idempotencyKey: 'key-issued-0001' }) };
    expect(judge(ex('POST', '/idempotency-keys', 200, echoed))).toMatch(/on a POST sent without an Idempotency-Key/);
    expect(judge(ex('POST', '/idempotency-keys', 200, { ok: true, data: issued, meta: meta() }))).toBeUndefined();
  });

  it('refuses replayed true on a conflict, a missing-key refusal or a keyless call', () => {
    expect(judge(ex('POST', '/connections', 409, conflict({ replayed: true }), 'key-12345678'))).toMatch(
      /idempotency_conflict answer/,
    );
    expect(judge(ex('POST', '/connections', 409, conflict({ replayed: false }), 'key-12345678'))).toBeUndefined();
    const stored400 = { ok: false, error: { code: 'invalid_request', message: 'm' }, meta: meta({ replayed: true }) };
    // A stored failure repeated for the same key and content is an earlier identical operation's answer.
    expect(judge(ex('POST', '/connections', 400, stored400, 'key-12345678'))).toBeUndefined();
    expect(judge(ex('POST', '/capabilities', 200, { ok: true, data: {}, meta: meta({ replayed: true }) }))).toMatch(
      /without an Idempotency-Key/,
    );
  });
});
