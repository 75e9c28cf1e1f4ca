import type { AccessToken } from '../core/context.ts';
import type { ReceiverCheckResult } from '../webhooks/receiver-check.ts';
import { callDropped, judgeDropped } from './kept-verdicts.ts';
import { createObservations, type ObservationLimits } from './observation.ts';
import { clientObserver } from './observe.ts';
import { CLIENT_RULES, type ClientReport, evaluateClientRules } from './report.ts';
import type { ServiceFacts } from './rule.ts';

/** Receiver checks kept (the newest per receiver is judged). */
export const RECEIVER_CHECKS_KEPT = 20;

/**
 * Client verdicts: the observation of every client of this sandbox, the pipeline step that feeds it,
 * receiver-check results, and the report over the client rules.
 * @example const verdicts = createClientVerdicts({ lookupToken: (t) => state.tokens.lookup(t) }); verdicts.report().exitCode
 */
export function createClientVerdicts(
  opts: {
    lookupToken?: (token: string) => AccessToken | undefined;
    limits?: Partial<ObservationLimits>;
    /** The sandbox clock (default real time). */
    now?: () => number;
    /** What the rules need to know of the service (how long it keeps an idempotency key). */
    service?: ServiceFacts;
  } = {},
) {
  const observations = createObservations(opts.limits);
  const service = opts.service ?? {};
  let checks: ReceiverCheckResult[] = [];
  return {
    observations,
    /** The observer hook: first step of the public pipeline. */
    step: clientObserver({
      observations,
      ...(opts.lookupToken ? { lookupToken: opts.lookupToken } : {}),
      ...(opts.now ? { now: opts.now } : {}),
      onCallDropped: (b, dropped) => callDropped(b, dropped, (x) => judgeDropped(x, CLIENT_RULES, service)),
    }),
    recordReceiverCheck(result: ReceiverCheckResult) {
      checks = [...checks.filter((c) => c.receiverId !== result.receiverId), result].slice(-RECEIVER_CHECKS_KEPT);
    },
    receiverChecks: () => [...checks],
    /** The report over every rule; `client` and `tenant` narrow it to one client's or tenant's calls. */
    report(filter: { client?: string; tenant?: string } = {}): ClientReport {
      return evaluateClientRules(observations, checks, filter, undefined, opts.service);
    },
    clear() {
      observations.clear();
      checks = [];
    },
  };
}
export type ClientVerdicts = ReturnType<typeof createClientVerdicts>;

export { CLIENT_RULES, type ClientReport, type RuleReport } from './report.ts';
export type { ClientRule, Evidence, RuleStatus, ServiceFacts } from './rule.ts';
