import { describe, expect, it } from 'vitest';
import { callDropped, DROPPED_BATCH, judgeDropped } from './kept-verdicts.ts';
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
