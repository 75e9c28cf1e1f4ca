import { channelChecks } from '../rules/channel-checks.ts';
import type { CheckDef } from '../runner/check.ts';
import { baseUrlChecks } from './base-url-checks.ts';
import { callChecks } from './call-checks.ts';
import { identityChecks } from './identity-checks.ts';
import { invariantChecks } from './invariant-checks.ts';
import { judgedChecks } from './judged-checks.ts';
import { probeChecks } from './probe-checks.ts';
import { streamChecks } from './stream-checks.ts';
import { tenantAlikeChecks } from './tenant-alike-checks.ts';
import { traceChecks } from './trace-checks.ts';

/**
 * The checks derived from the contract (simulator/contract/) that make requests: negative probes per
 * operation, stateful invariants, streams, both base URLs. Registered in conformance/checks/index.ts.
 */
export const generatedChecks: readonly CheckDef[] = [
  ...probeChecks,
  ...invariantChecks,
  ...identityChecks,
  ...streamChecks,
  ...baseUrlChecks,
  ...tenantAlikeChecks,
];

/** The generated checks that judge every answer of the run (judgesRun): registered with the response rules, last. */
export const generatedJudges: readonly CheckDef[] = [...judgedChecks, ...callChecks, ...traceChecks, ...channelChecks];
