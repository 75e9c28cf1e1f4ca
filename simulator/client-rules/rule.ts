import type { ReceiverCheckResult } from '../webhooks/receiver-check.ts';
import type { BrowserRecord, ClientBucket } from './observation.ts';

export type RuleStatus = 'pass' | 'fail' | 'not-observed';

/** What decided a verdict: the calls (request ids), when, and the waits measured between them. */
export interface Evidence {
  client: string;
  tenant: string;
  requestIds: string[];
  /** ISO time of the first call named. */
  at: string;
  /** Waits between the calls named, ms (what the server measured: answer sent to next arrival). */
  waitsMs?: number[];
  note: string;
}

export interface RuleVerdict {
  status: RuleStatus;
  /** One line: what was seen, or why nothing could be judged. */
  summary: string;
  evidence: Evidence[];
}

/** What the rules know of the service they observe for (where the interface says "not shown"). */
export interface ServiceFacts {
  /**
   * How long the service keeps an idempotency key from its first use, ms (the interface returns only
   * expiresAt): a key used again after that starts a new operation. Undefined: forever.
   */
  keyValidityMs?: number;
}

/** What a rule evaluates: the observed buckets and the browser-context calls. */
export interface RuleInput {
  service: ServiceFacts;
  buckets: readonly ClientBucket[];
  browser: readonly BrowserRecord[];
  /** The latest receiver check of each receiver. */
  receiverChecks: readonly ReceiverCheckResult[];
}

/** A duty the interface gives clients, judged from what the sandbox observed. */
export interface ClientRule {
  /** <area>.<rule>, e.g. retry.only-after-failure. */
  id: string;
  severity: 'MUST' | 'SHOULD';
  title: string;
  /** Heading of interface.md the sentence is under. */
  section: string;
  /** The interface's own words the rule rests on. */
  sentence: string;
  evaluate(input: RuleInput): RuleVerdict;
}

/** Evidence entries kept per verdict: enough to find the calls, never the whole history. */
export const MAX_EVIDENCE = 10;

/** An evidence entry for calls of one bucket. */
export function evidence(
  b: Pick<ClientBucket, 'client' | 'tenant'>,
  requestIds: string[],
  at: number,
  note: string,
  waitsMs?: number[],
): Evidence {
  return {
    client: b.client,
    tenant: b.tenant,
    requestIds,
    at: new Date(at).toISOString(),
    ...(waitsMs ? { waitsMs: waitsMs.map((w) => Math.round(w)) } : {}),
    note,
  };
}

/**
 * The verdict from violations and passing evidence: fail on any violation, pass when something was
 * judged, otherwise not observed (never a silent pass).
 * @example verdict(bad, good, 'retries', 'no retry seen yet')
 */
export function verdict(bad: Evidence[], good: Evidence[], what: string, nothing: string): RuleVerdict {
  if (bad.length)
    return { status: 'fail', summary: `${bad.length} violation(s) in ${what}`, evidence: bad.slice(0, MAX_EVIDENCE) };
  if (good.length)
    return { status: 'pass', summary: `${good.length} ${what} judged, none at fault`, evidence: good.slice(0, 3) };
  return { status: 'not-observed', summary: nothing, evidence: [] };
}
