import type { Exchange } from '../client/http-client.ts';
import type { DiffEntry } from './json-diff.ts';

/** What a check reports when an expectation is not met; the runner adds the evidence. */
export interface FailureInput {
  /** The rule as the target should have behaved, e.g. "GET /providers without Authorization answers 401 unauthorized". */
  expected: string;
  /** What happened instead; derived from the exchange when omitted. */
  observed?: string;
  /** The exchange that shows it (gives requestId, curl and the response). */
  exchange?: Exchange;
  /** For two answers compared: where they differ (see jsonDiff). */
  diff?: DiffEntry[];
}

/** A failure as reporters see it: every secret already replaced by its variable name. */
export interface Failure {
  expected: string;
  observed: string;
  /** METHOD url of the request that shows it. */
  request?: string;
  status?: number;
  requestId?: string;
  /** A command that repeats the request; secrets are read from $NCS_TOKEN and friends. */
  curl?: string;
  /** The start of the response body. */
  response?: string;
  /** For two answers compared: each differing field (path, expected, observed). */
  diff?: DiffEntry[];
}

/** Thrown by ctx.require: ends the check with the failures gathered so far plus this one. */
export class CheckFailure extends Error {
  readonly failure: FailureInput;
  constructor(failure: FailureInput) {
    super(failure.expected);
    this.name = 'CheckFailure';
    this.failure = failure;
  }
}

/** Thrown by ctx.skip: the check cannot judge this target (a prerequisite is missing). */
export class SkipCheck extends Error {
  constructor(reason: string) {
    super(reason);
    this.name = 'SkipCheck';
  }
}
