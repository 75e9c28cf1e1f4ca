import type { ScenarioResult } from './lib/types.ts';

/** A goal of issue 8, checked against one metric of one scenario (a ratio wherever a baseline exists). */
export interface Target {
  id: string;
  description: string;
  scenario: string;
  metric: string;
  op: '>=' | '<=';
  /** A number, or the name of another metric of the same scenario (e.g. its documented cap). */
  limit: number | string;
}

export interface TargetVerdict {
  target: Target;
  verdict: 'PASS' | 'FAIL' | 'N/A';
  measured?: number;
  limit?: number;
  why?: string;
}

export const TARGETS: readonly Target[] = [
  {
    id: 'providers-rps',
    description: 'GET /providers req/s vs baseline',
    scenario: 'providers',
    metric: 'rpsRatio',
    op: '>=',
    limit: 0.6,
  },
  {
    id: 'providers-p99',
    description: 'GET /providers p99 vs baseline',
    scenario: 'providers',
    metric: 'p99Ratio',
    op: '<=',
    limit: 2,
  },
  {
    id: 'connections-rps',
    description: 'POST /connections (new keys) req/s vs baseline (issue 23 item 25)',
    scenario: 'connections-new',
    metric: 'rpsRatio',
    op: '>=',
    limit: 0.6,
  },
  {
    id: 'redis-connections',
    description: 'POST /connections on Redis (one replica) vs the memory store',
    scenario: 'redis-store',
    metric: 'connections_redis1_ratio',
    op: '>=',
    limit: 0.5,
  },
  {
    id: 'sse-subscribers',
    description: 'SSE subscribers held',
    scenario: 'sse-fanout',
    metric: 'subscribers',
    op: '>=',
    limit: 10_000,
  },
  {
    id: 'sse-fanout',
    description: 'SSE event reaches every subscriber (ms)',
    scenario: 'sse-fanout',
    metric: 'fanoutMs',
    op: '<=',
    limit: 250,
  },
  {
    id: 'sse-memory',
    description: 'SSE RSS per subscriber (KB, issue 23 item 26)',
    scenario: 'sse-fanout',
    metric: 'rssPerSubscriberKb',
    op: '<=',
    limit: 16,
  },
  {
    id: 'cold-start',
    description: 'cold start to first answer (ms, source; issue 23 item 27)',
    scenario: 'cold-start',
    metric: 'simulatorMs',
    op: '<=',
    limit: 400,
  },
  {
    id: 'installed-cold-start',
    description: 'installed package: ncs serve to first answer (ms)',
    scenario: 'installed-package',
    metric: 'coldStartMs',
    op: '<=',
    limit: 250,
  },
  {
    id: 'tarball-size',
    description: 'packed tarball (MB)',
    scenario: 'installed-package',
    metric: 'tarballMb',
    op: '<=',
    limit: 1,
  },
  {
    id: 'conformance',
    description: 'full conformance run, local (ms)',
    scenario: 'conformance',
    metric: 'wallMs',
    op: '<=',
    limit: 5_000,
  },
  {
    id: 'idempotency-rss',
    description: 'RSS after 1,000,000 keys (MB) under the documented cap',
    scenario: 'memory-idempotency',
    metric: 'peakRssMb',
    op: '<=',
    limit: 'capMb',
  },
  {
    id: 'idempotency-flat',
    description: 'heap growth from 1.5 x maxRecords keys to the end (%)',
    scenario: 'memory-idempotency',
    metric: 'heapGrowthPct',
    op: '<=',
    limit: 5,
  },
  {
    id: 'stream-retention',
    description: 'heap growth per stream message past the window (bytes)',
    scenario: 'memory-stream',
    metric: 'growthBytesPerMessage',
    op: '<=',
    limit: 'maxGrowthBytesPerMessage',
  },
];

/**
 * PASS/FAIL per target; N/A when the scenario's feature is absent or it was not run. A scenario
 * that failed fails its targets.
 * @example evaluateTargets(results).filter((v) => v.verdict === 'FAIL')
 */
export function evaluateTargets(
  results: readonly ScenarioResult[],
  targets: readonly Target[] = TARGETS,
): TargetVerdict[] {
  return targets.map((target) => {
    const r = results.find((x) => x.id === target.scenario);
    if (!r) return { target, verdict: 'N/A', why: 'not run' };
    if (r.status === 'not-available') return { target, verdict: 'N/A', why: r.reason ?? 'not available' };
    const measured = r.metrics[target.metric];
    const limit = typeof target.limit === 'number' ? target.limit : r.metrics[target.limit];
    if (r.status === 'failed')
      return {
        target,
        verdict: 'FAIL',
        ...(measured !== undefined ? { measured } : {}),
        ...(limit !== undefined ? { limit } : {}),
        why: r.reason ?? 'scenario failed',
      };
    if (measured === undefined || limit === undefined || Number.isNaN(measured))
      return { target, verdict: 'FAIL', why: `metric ${target.metric} missing` };
    const ok = target.op === '>=' ? measured >= limit : measured <= limit;
    return { target, verdict: ok ? 'PASS' : 'FAIL', measured, limit };
  });
}
