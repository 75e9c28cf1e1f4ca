import { describe, expect, it } from 'vitest';
import { callDropped, DROPPED_BATCH, judgeDropped, OPEN_KEPT } from './kept-verdicts.ts';
import { type CallRecord, createObservations } from './observation.ts';
import { CLIENT_RULES, evaluateClientRules } from './report.ts';
import { call } from './test-records.ts';

/** Observations with a small ring, fed as the observer feeds them (drops go to callDropped). */
function feed(calls: CallRecord[], callsPerBucket = 50) {
  const obs = createObservations({ callsPerBucket });
  const b = obs.bucket('app', 't1');
  let judged = 0;
  for (const c of calls) {
    const dropped = b.calls.push(c);
    if (dropped)
      callDropped(b, dropped, (x) => {
        judged++;
        judgeDropped(x, CLIENT_RULES, {});
      });
  }
  const report = evaluateClientRules(obs, []);
  const rule = (id: string) => report.rules.find((r) => r.id === id);
  return { b, report, rule, judged: () => judged };
}

/** n correct reads a second apart from `at`. */
const reads = (at: number, n: number) =>
  Array.from({ length: n }, (_, i) => call({ at: at + i * 1000, path: '/api/public/v1/connectors' }));

describe('verdicts kept when the ring drops calls', () => {
  it('a 429 retried too early, then more correct calls than the bucket keeps: still a failure, with its evidence', () => {
    const limited = call({ at: 0, status: 429, retryAfterMs: 2000 });
    const early = call({ at: 205 });
    const { rule, b } = feed([limited, early, ...reads(10_000, 120)]);
    expect(b.calls.slice().some((c) => c === limited || c === early)).toBe(false);
    const verdict = rule('retry.respects-retry-after');
    expect(verdict?.status).toBe('fail');
    expect(verdict?.summary).toMatch(/1 violation\(s\) among calls no longer kept/);
    expect(verdict?.evidence[0]?.requestIds).toEqual([limited.requestId, early.requestId]);
  });

  it('a violation among the calls still kept is reported once, from them (the dropped reads hold none)', () => {
    // 57 calls in a ring of 50: seven correct reads are dropped, the 429 and its early retry are kept.
    const limited = call({ at: 0, status: 429, retryAfterMs: 2000 });
    const early = call({ at: 205 });
    const { rule } = feed([...reads(-60_000, 10), limited, early, ...reads(10_000, 45)]);
    const verdict = rule('retry.respects-retry-after');
    expect(verdict?.status).toBe('fail');
    expect(verdict?.evidence.filter((e) => e.requestIds.includes(early.requestId))).toHaveLength(1);
  });

  it('correct traffic drops its calls without judging them again', () => {
    const { b, judged, rule } = feed(reads(0, 300));
    expect(b.kept).toBeUndefined();
    expect(judged()).toBe(0);
    expect(rule('retry.respects-retry-after')?.status).toBe('not-observed');
  });

  it('a flood of refusals is judged once per batch of dropped calls, not per call', () => {
    const flood = Array.from({ length: 400 }, (_, i) => call({ at: i * 10, status: 400 }));
    const { judged } = feed(flood);
    expect(judged()).toBe(Math.floor((400 - 50) / DROPPED_BATCH));
  });
});

describe('a retry whose original the ring dropped, within its window (busy clients)', () => {
  /** n correct reads of other content, `gap` ms apart from `at`. */
  const others = (at: number, n: number, gap = 100) =>
    Array.from({ length: n }, (_, i) => call({ at: at + i * gap, path: '/api/public/v1/connectors' }));

  it('a 429 retried before its Retry-After behind more calls than the ring keeps: a failure', () => {
    const limited = call({ at: 0, status: 429, retryAfterMs: 30_000 });
    const early = call({ at: 26_000 });
    const { rule, b } = feed([limited, ...others(100, 80), early]);
    expect(b.calls.slice().includes(limited)).toBe(false);
    const verdict = rule('retry.respects-retry-after');
    expect(verdict?.status).toBe('fail');
    expect(verdict?.evidence.some((e) => e.requestIds.includes(early.requestId))).toBe(true);
  });

  it('still a failure when the early retry is dropped too, before anyone asked', () => {
    const limited = call({ at: 0, status: 429, retryAfterMs: 30_000 });
    const early = call({ at: 26_000 });
    const { rule, b } = feed([limited, ...others(100, 80), early, ...others(27_000, 80)]);
    expect(b.calls.slice().includes(early)).toBe(false);
    expect(rule('retry.respects-retry-after')?.status).toBe('fail');
  });

  it('the same retry after its Retry-After passes', () => {
    const limited = call({ at: 0, status: 429, retryAfterMs: 30_000 });
    const late = call({ at: 31_000 });
    expect(feed([limited, ...others(100, 80), late]).rule('retry.respects-retry-after')?.status).not.toBe('fail');
  });

  it('a failed create sent again under a new key behind more creates than the ring keeps: a failure', () => {
    const create = (at: number, key: string, body: string, status = 200) =>
      call({ at, method: 'POST', path: '/api/public/v1/connections', key, body, status });
    const failed = create(0, 'key-first-0001', '{"scopeLabel":"five"}', 500);
    const between = Array.from({ length: 70 }, (_, i) =>
      create(500 + i * 500, `key-other-${i}`, `{"scopeLabel":"o${i}"}`),
    );
    const again = create(40_000, 'key-again-0001', '{"scopeLabel":"five"}');
    const { rule } = feed([failed, ...between, again]);
    expect(rule('retry.same-key-and-content')?.status).toBe('fail');
  });

  it('forgets a dropped failure once its window ended, and keeps at most OPEN_KEPT', () => {
    const failures = Array.from({ length: 60 }, (_, i) =>
      call({ at: i * 10, status: 500, path: `/api/public/v1/p${i}` }),
    );
    const { b } = feed([...failures, ...others(1000, 60)]);
    expect(b.kept?.open.length).toBe(OPEN_KEPT);
    const late = call({ at: 400_000 });
    b.lastSeen = late.at;
    callDropped(b, call({ at: 390_000, status: 500 }), () => undefined);
    expect(b.kept?.open.length).toBe(1);
  });
});
