import { describe, expect, it } from 'vitest';
import { findChains } from './attempts.ts';
import { tokenSpans } from './processes.ts';
import { evaluateClientRules } from './report.ts';
import { call, observed, stream, testToken } from './test-records.ts';

const chainsOf = (...calls: ReturnType<typeof call>[]) => findChains(observed(calls).bucket('app', 't1'));
const POST = { method: 'POST', path: '/api/public/v1/connections' };
const statusOf = (calls: ReturnType<typeof call>[], id: string) =>
  evaluateClientRules(observed(calls), []).rules.find((r) => r.id === id)?.status;

describe('processes of one client, told apart by their tokens', () => {
  it('takes two tokens in use at the same time as two processes, a renewal or a token per call not', () => {
    const [a, b] = [testToken(0), testToken(1)];
    const spans = tokenSpans([call({ at: 0, token: a }), call({ at: 10, token: b }), call({ at: 20, token: a })]);
    expect(spans.apart(call({ at: 0, token: a }), call({ at: 10, token: b }))).toBe(true);
    // The old token's last use before the new one's first: one process that renewed.
    const renewed = tokenSpans([call({ at: 0, token: a }), call({ at: 10, token: a }), call({ at: 20, token: b })]);
    expect(renewed.apart(call({ at: 10, token: a }), call({ at: 20, token: b }))).toBe(false);
    const perCall = tokenSpans([call({ at: 0, token: a }), call({ at: 10, token: b })]);
    expect(perCall.apart(call({ at: 0, token: a }), call({ at: 10, token: b }))).toBe(false);
    expect(spans.apart(call({ at: 0, token: a }), call({ at: 20, token: a }))).toBe(false);
  });

  it("keeps two processes' streams apart: a fresh consumer resumes nothing, a 429 is owed by its own process", () => {
    const [a, b] = [testToken(0), testToken(1)];
    const STREAM = '/api/public/v1/stream';
    const streamStatus = (calls: ReturnType<typeof call>[], streams: ReturnType<typeof stream>[], id: string) =>
      evaluateClientRules(observed(calls, streams), []).rules.find((r) => r.id === id)?.status;
    // A's stream is cut after 3; B (another token) starts fresh from 0 a second later; A resumes from 3.
    const cut = stream({ at: 0, endedAt: 1_000, firstId: 1, lastId: 3, token: a });
    const fresh = stream({ at: 2_000, endedAt: 2_600, cursor: 0, token: b });
    const resumed = stream({ at: 3_000, cursor: 3, token: a });
    expect(streamStatus([], [cut, fresh, resumed], 'stream.resume-from-last-read')).toBe('pass');
    // One process (one token) starting again from 0 after reading 3 reads them again.
    const one = [cut, { ...fresh, token: a }, resumed];
    expect(streamStatus([], one, 'stream.resume-from-last-read')).toBe('fail');
    // A's stream call refused 429 (Retry-After 5 s); B opens its own stream 1 s later; A waits 5 s.
    const refused = call({ at: 0, path: STREAM, status: 429, retryAfterMs: 5_000, token: a });
    const other = stream({ at: 1_000, endedAt: 1_400, token: b });
    const own = stream({ at: 5_100, token: a });
    expect(streamStatus([refused], [other, own], 'retry.respects-retry-after')).toBe('pass');
    // The same process reopening after 1 s ignored it.
    expect(streamStatus([refused], [{ ...other, token: a }], 'retry.respects-retry-after')).toBe('fail');
  });

  it("keeps the reads of two pods apart: each retries its own, neither repeats the other's failure", () => {
    const [a, b] = [testToken(0), testToken(1)];
    // Two pods through one outage: A at 0, 600, 1700; B at 40, 650, 1800 (each its own backoff).
    const chains = chainsOf(
      call({ at: 0, status: 500, token: a }),
      call({ at: 40, status: 500, token: b }),
      call({ at: 600, status: 500, token: a }),
      call({ at: 650, status: 500, token: b }),
      call({ at: 1700, token: a }),
      call({ at: 1800, token: b }),
    );
    expect(chains.map((c) => c.calls.map((x) => x.token === a))).toEqual([
      [true, true, true],
      [false, false, false],
    ]);
    // A cron job's first read 300 ms after a worker's 429 owes that 429 nothing; the worker's retry does.
    const worker = [call({ at: -5_000, token: a }), call({ at: 0, status: 429, retryAfterMs: 2_000, token: a })];
    const cron = call({ at: 300, token: b });
    expect(statusOf([...worker, cron, call({ at: 2_100, token: a })], 'retry.respects-retry-after')).toBe('pass');
    // One process that renewed its token after the 429 and read at once ignored it.
    expect(statusOf([...worker, cron], 'retry.respects-retry-after')).toBe('fail');
  });

  it('does not take a keyed create another pod got a success for as a repeat (an at-least-once redelivery)', () => {
    const [a, b] = [testToken(0), testToken(1)];
    const delivered = [
      call({ ...POST, at: -10_000, key: 'b-1', body: 'other', token: b }),
      call({ ...POST, at: 0, key: 'msg-1', body: 'a', token: a }),
      call({ ...POST, at: 30_000, key: 'msg-1', body: 'a', token: b }),
    ];
    expect(chainsOf(...delivered)).toEqual([]);
    expect(statusOf(delivered, 'retry.only-after-failure')).toBe('not-observed');
    // One process sending it again after its own success is the repeat it looks like.
    const again = delivered.map((c) => ({ ...c, token: a }));
    expect(chainsOf(...again)[0]?.links[0]?.cause).toBe('success');
    // A sibling sending a failed create again is a retry of that operation, with its key or not.
    const failed = delivered.map((c, i) => (i === 1 ? { ...c, status: 500 } : c));
    expect(chainsOf(...failed)[0]?.links[0]).toMatchObject({ cause: 'internal', sameKey: true });
  });
});
