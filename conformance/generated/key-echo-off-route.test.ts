import { describe, expect, it } from 'vitest';
import type { Exchange } from '../client/http-client.ts';
import type { CheckContext } from '../runner/check.ts';
import { judgeKeyEchoOffRoute } from './key-echo-off-route.ts';

const BASE = 'http://127.0.0.1:4010';
const ex = (path: string, sent: string | undefined, echoed: string | undefined) =>
  ({
    method: 'POST',
    url: `${BASE}${path}`,
    requestHeaders: sent ? { 'Idempotency-Key': sent } : {},
    status: 200,
    headers: {},
    text: '',
    json: { ok: true, data: {}, meta: echoed ? { idempotencyKey: echoed } : {} },
    durationMs: 1,
  }) as unknown as Exchange;

const failures = (exchanges: Exchange[]) => {
  const failed: unknown[] = [];
  const ctx = {
    target: { baseUrl: BASE, hasToken: true },
    exchanges: () => exchanges.map((e) => ({ check: 'webhooks.redelivery', ex: e })),
    fail: (f: unknown) => failed.push(f),
  } as unknown as CheckContext;
  judgeKeyEchoOffRoute(ctx);
  return failed;
};

describe('judgeKeyEchoOffRoute', () => {
  const redeliver = (n: number) => `/api/public/v1/webhooks/wh_1/deliveries/d${n}/redeliver`;
  it('fails a path beyond the routes that echoes another key than the one sent', () => {
    const f = failures([
      ex(redeliver(1), 'redeliver-key-0001', 'redeliver-key-0001'),
      ex(redeliver(2), 'redeliver-key-0002', 'redeliver-key-0001'),
    ]);
    expect(f).toHaveLength(1);
    expect(JSON.stringify(f[0])).toContain('redeliver-key-0002');
  });
  it('leaves the interface routes to the route rule, and answers without a key or an echo alone', () => {
    expect(failures([ex('/api/public/v1/connections', 'key-sent-0001', 'other-key-0001')])).toEqual([]);
    expect(
      failures([ex(redeliver(3), undefined, 'made-up-key-0001'), ex(redeliver(4), 'sent-key-0004', undefined)]),
    ).toEqual([]);
    expect(failures([ex('/oauth/token', 'sent-key-0005', 'other-key-0005')])).toEqual([]);
  });
});
