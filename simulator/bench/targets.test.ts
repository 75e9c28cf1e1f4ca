import { describe, expect, it } from 'vitest';
import type { ScenarioResult } from './lib/types.ts';
import { evaluateTargets, type Target } from './targets.ts';

const targets: Target[] = [
  { id: 'a', description: 'ratio', scenario: 's1', metric: 'rpsRatio', op: '>=', limit: 0.6 },
  { id: 'b', description: 'cap', scenario: 's2', metric: 'rssMb', op: '<=', limit: 'capMb' },
  { id: 'c', description: 'absent', scenario: 's3', metric: 'x', op: '<=', limit: 1 },
  { id: 'd', description: 'not run', scenario: 's4', metric: 'x', op: '<=', limit: 1 },
  { id: 'e', description: 'failed', scenario: 's5', metric: 'x', op: '<=', limit: 1 },
];
const result = (
  id: string,
  status: ScenarioResult['status'],
  metrics: Record<string, number>,
  reason?: string,
): ScenarioResult => ({ id, title: id, status, metrics, ...(reason ? { reason } : {}) });

describe('targets', () => {
  it('passes, fails, or says why it cannot tell', () => {
    const verdicts = evaluateTargets(
      [
        result('s1', 'ok', { rpsRatio: 0.59 }),
        result('s2', 'ok', { rssMb: 300, capMb: 588 }),
        result('s3', 'not-available', {}, 'no stream yet'),
        result('s5', 'failed', { x: 0.5 }, '429 answers'),
      ],
      targets,
    );
    expect(verdicts.map((v) => [v.target.id, v.verdict, v.why])).toEqual([
      ['a', 'FAIL', undefined],
      ['b', 'PASS', undefined],
      ['c', 'N/A', 'no stream yet'],
      ['d', 'N/A', 'not run'],
      ['e', 'FAIL', '429 answers'],
    ]);
    expect(verdicts[1]).toMatchObject({ measured: 300, limit: 588 });
  });

  it('fails a target whose metric is missing rather than passing it', () => {
    expect(evaluateTargets([result('s1', 'ok', {})], targets.slice(0, 1))[0]).toMatchObject({
      verdict: 'FAIL',
      why: 'metric rpsRatio missing',
    });
  });
});
