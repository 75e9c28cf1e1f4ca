import { describe, expect, it } from 'vitest';
import type { Exchange } from '../client/http-client.ts';
import type { CheckContext } from '../runner/check.ts';
import { judgeKeyEchoRepeats } from './key-echo-repeats.ts';

const URL_ = 'http://127.0.0.1:4010/api/public/v1/connections';
const answer = (key: string, status: number, meta: Record<string, unknown>, body = '{"connectorId":"x"}') =>
  ({
    method: 'POST',
    url: URL_,
    requestHeaders: { 'Idempotency-Key': key },
    requestBody: body,
    status,
    headers: {},
    text: '',
    json: { ok: status < 400, meta },
    durationMs: 1,
  }) as unknown as Exchange;

const failures = (exchanges: Exchange[]) => {
  const failed: unknown[] = [];
  const ctx = {
    exchanges: () => exchanges.map((ex) => ({ check: 'idempotency.refusal-repeated', ex })),
    fail: (f: unknown) => failed.push(f),
  } as unknown as CheckContext;
  judgeKeyEchoRepeats(ctx);
  return failed;
};

describe('judgeKeyEchoRepeats', () => {
  it('fails a repeat answered alike without the key its first answer named', () => {
    const f = failures([
      answer('key-00000001', 404, { idempotencyKey: 'key-00000001' }),
      answer('key-00000001', 404, {}),
    ]);
    expect(f).toHaveLength(1);
    expect(JSON.stringify(f[0])).toContain('meta.idempotencyKey undefined');
  });
  it('takes a repeat that names the key, one answered otherwise, other content, and a deployment that never names it', () => {
    expect(
      failures([
        answer('key-00000002', 404, { idempotencyKey: 'key-00000002' }),
        answer('key-00000002', 404, { idempotencyKey: 'key-00000002', replayed: true }),
        answer('key-00000003', 404, { idempotencyKey: 'key-00000003' }),
        answer('key-00000003', 429, {}),
        answer('key-00000003', 409, {}),
        answer('key-00000004', 404, { idempotencyKey: 'key-00000004' }),
        answer('key-00000004', 404, {}, '{"connectorId":"y"}'),
        answer('key-00000005', 404, {}),
        answer('key-00000005', 404, {}),
        // The key echoed on replays only: a first call without it, a replay with it, a call run again without it.
        answer('key-00000006', 200, { replayed: false }),
        answer('key-00000006', 200, { idempotencyKey: 'key-00000006', replayed: true }),
        answer('key-00000006', 200, { replayed: false }),
      ]),
    ).toEqual([]);
  });
});
