import { RingBuffer } from '../lib/ring-buffer.ts';
import type { ReceiverCheckResult } from '../webhooks/receiver-check.ts';
import { judgeDropped, keptEvidence } from './kept-verdicts.ts';
import type { CallRecord, ClientBucket, Observations } from './observation.ts';
import {
  type ClientRule,
  type Evidence,
  MAX_EVIDENCE,
  type RuleStatus,
  type RuleVerdict,
  type ServiceFacts,
} from './rule.ts';
import { ACCESS_RULES } from './rules-access.ts';
import { receiverVerifies } from './rules-receiver.ts';
import { RETRY_RULES } from './rules-retry.ts';

/** Every client rule, in report order. */
export const CLIENT_RULES: readonly ClientRule[] = [...RETRY_RULES, ...ACCESS_RULES, receiverVerifies];

export interface RuleReport {
  id: string;
  severity: 'MUST' | 'SHOULD';
  title: string;
  section: string;
  sentence: string;
  status: RuleStatus;
  summary: string;
  evidence: Evidence[];
}

export interface ClientReport {
  generatedAt: string;
  /** Start of observation (sandbox start or the last reset). */
  since: string;
  filter: { client?: string; tenant?: string };
  observed: { clients: string[]; calls: number; streams: number; browserCalls: number; receiverChecks: number };
  summary: {
    total: number;
    passed: number;
    failed: number;
    notObserved: number;
    mustFailed: number;
    shouldFailed: number;
  };
  /** 1 when a MUST rule failed, else 0 (what `ncs client-report` exits with). */
  exitCode: 0 | 1;
  rules: RuleReport[];
}

/**
 * Evaluates every client rule over what was observed (optionally one client's or tenant's calls only).
 * @example const report = evaluateClientRules(observations, checks, { client: 'partner-app' }); report.exitCode
 */
export function evaluateClientRules(
  observations: Observations,
  receiverChecks: readonly ReceiverCheckResult[],
  filter: { client?: string; tenant?: string } = {},
  rules: readonly ClientRule[] = CLIENT_RULES,
  service: ServiceFacts = {},
): ClientReport {
  const buckets = observations.buckets(filter);
  const browser = observations.browser
    .slice()
    .filter((r) => (!filter.client || r.client === filter.client) && (!filter.tenant || r.tenant === filter.tenant));
  const checks = receiverChecks.filter((r) => !filter.tenant || r.tenant === filter.tenant);
  // Dropped calls still waiting to be judged are judged now, with the calls kept.
  for (const b of buckets) judgeDropped(b, rules, service);
  const judgedBuckets = buckets.map((b) => withHeldGiveUps(b, observations.heldGiveUps(b.client, b.tenant)));
  const results: RuleReport[] = rules.map((rule) => {
    const judged = withKept(
      rule.evaluate({ buckets: judgedBuckets, browser, receiverChecks: checks, service }),
      buckets,
      rule.id,
    );
    const { id, severity, title, section, sentence } = rule;
    return { id, severity, title, section, sentence, ...judged };
  });
  const failed = results.filter((r) => r.status === 'fail');
  const mustFailed = failed.filter((r) => r.severity === 'MUST').length;
  return {
    generatedAt: new Date().toISOString(),
    since: new Date(observations.since()).toISOString(),
    filter,
    observed: {
      clients: [...new Set(buckets.map((b) => `${b.client} @ ${b.tenant}`))],
      calls: buckets.reduce((n, b) => n + b.calls.size, 0),
      streams: buckets.reduce((n, b) => n + b.streams.size, 0),
      browserCalls: browser.length,
      receiverChecks: checks.length,
    },
    summary: {
      total: results.length,
      passed: results.filter((r) => r.status === 'pass').length,
      failed: failed.length,
      notObserved: results.filter((r) => r.status === 'not-observed').length,
      mustFailed,
      shouldFailed: failed.length - mustFailed,
    },
    exitCode: mustFailed > 0 ? 1 : 0,
    rules: results,
  };
}

/**
 * The bucket as this report judges it: with the calls its client gave up on that the service still holds
 * (provisional records, no answer yet), beside the calls kept. The bucket itself is left as it is.
 */
function withHeldGiveUps(b: ClientBucket, held: readonly CallRecord[]): ClientBucket {
  if (held.length === 0) return b;
  const calls = new RingBuffer<CallRecord>(b.calls.capacity + held.length);
  for (const c of [...b.calls.slice(), ...held]) calls.push(c);
  return { ...b, calls };
}

/** A verdict with the violations found among calls the buckets no longer keep: any of them fails the rule. */
function withKept(v: RuleVerdict, buckets: readonly ClientBucket[], ruleId: string): RuleVerdict {
  const earlier = keptEvidence(buckets, ruleId);
  if (earlier.length === 0) return v;
  const seen = new Set(earlier.map((e) => e.requestIds.join(' ')));
  const now = v.status === 'fail' ? v.evidence.filter((e) => !seen.has(e.requestIds.join(' '))) : [];
  const summary =
    v.status === 'fail'
      ? `${v.summary}; ${earlier.length} more among calls no longer kept`
      : `${earlier.length} violation(s) among calls no longer kept (the ${v.status === 'pass' ? 'calls kept are at no fault' : 'calls kept show none'})`;
  return { status: 'fail', summary, evidence: [...earlier, ...now].slice(0, MAX_EVIDENCE) };
}
