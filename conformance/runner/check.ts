import type { ErrorCode } from '../../simulator/contract/errors.ts';
import type { Exchange } from '../client/http-client.ts';
import type { SseSession } from '../client/sse-stream.ts';
import type { DeploymentProfile } from './deployment-profile.ts';
import type { LoggedExchange } from './exchange-log.ts';
import type { FailureInput } from './failure.ts';
import { INTERFACE_SECTIONS, type InterfaceSection } from './sections.ts';

/** MUST: stated by the interface (a failure fails the run). SHOULD: advisory, where the interface is silent. */
export type Severity = 'MUST' | 'SHOULD';
/** What a check needs from the run; without it the check is skipped with the reason. */
export type Requirement = 'token' | 'alt-base-url' | 'other-tenant' | 'foreign-tenant' | 'control-plane';
export type ProfileName = 'full' | 'read-only';

export interface CallOptions {
  /**
   * 'token' sends Authorization and x-service-tenant (default); 'none' sends neither; 'admin' sends
   * the control plane's admin token (no tenant).
   */
  credentials?: 'token' | 'none' | 'admin';
  /**
   * Where the run's token goes with credentials 'token': the Authorization header (default), or only the
   * query parameter access_token (RFC 6750 §2.3), to see that the header is required.
   */
  tokenIn?: 'header' | 'query';
  /** Override the tenant header: a value, or false to leave it out. */
  tenant?: string | false;
  /** Letter case of the credential headers' names (default authorization, x-service-tenant). */
  headerNames?: { authorization?: string; tenant?: string };
  /** The authentication scheme's name as written before the token (default Bearer; RFC 9110 §11.1: any case). */
  authScheme?: string;
  headers?: Record<string, string>;
  /** JSON body (sets content-type application/json). */
  json?: unknown;
  /** Raw body text, sent as is (set content-type yourself). */
  body?: string;
  query?: Record<string, string>;
  base?: 'main' | 'alt';
  /** The interface's retry policy (default on). */
  retry?: boolean;
  /** false: headers only (event streams). */
  readBody?: boolean;
  /** false: leave out the kit's default headers (Service-Version), e.g. to see what a bare call gets. */
  defaultHeaders?: false;
  /**
   * Streams only: reconnect with Last-Event-ID (the last id read) when the deployment ends the stream before
   * a read is done, as a client resumes after an interruption (sse-follow.ts).
   */
  follow?: boolean;
}

export interface TargetInfo {
  baseUrl: string;
  altBaseUrl?: string;
  tenant?: string;
  hasToken: boolean;
  /** A second tenant the same credentials may act for (tenant-isolation checks). */
  otherTenant?: string;
  /** A tenant the credentials are not released for (the 403 forbidden check). */
  foreignTenant?: string;
  /** An admin token for the deployment's sandbox control plane was given. */
  hasAdminToken: boolean;
  /** The environment the target is, when known (option, deployment profile or GET /info). */
  environment?: string;
}

/** Soft expectations: each records a failure and returns whether it held; the check goes on. */
export interface Expectations {
  that(condition: boolean, failure: FailureInput): boolean;
  status(ex: Exchange, expected: number | readonly number[], rule: string): boolean;
  /** The failure envelope's code and the status the Errors table pairs with it. */
  errorCode(ex: Exchange, code: ErrorCode, rule: string): boolean;
}

/** Everything a check gets. */
export interface CheckContext {
  readonly target: TargetInfo;
  readonly profile: ProfileName;
  readonly deployment: DeploymentProfile;
  readonly runId: string;
  /** Seed of the run's generated probes (the same seed draws the same probes). */
  readonly seed: number;
  /**
   * Aborted when the run stops early (--max-failures): further calls are refused, reads and streams end at
   * it (a modifying call already sent is answered); a check waiting on something else (a webhook
   * delivery) ends its wait at it too.
   */
  readonly signal: AbortSignal;
  /** A request against the target; `path` is absolute (/api/public/v1/...) or a full URL. */
  call(method: string, path: string, opts?: CallOptions): Promise<Exchange>;
  /** Opens an event stream (same options as call); close the session when done. Closed at the end of the check anyway. */
  stream(path: string, opts?: CallOptions): Promise<SseSession>;
  /** Runs `cleanup` once every check of the run has finished (e.g. stops the kit's webhook receiver). */
  atRunEnd(cleanup: () => Promise<void> | void): void;
  /** A recognisable name for anything the kit creates: ncs-conformance-<run>-<kind>-<n>. */
  label(kind: string): string;
  /** A value computed once per run and shared by every check (e.g. the OpenAPI document). */
  shared<T>(key: string, make: () => Promise<T>): Promise<T>;
  /** The shared value of `key` if a check has made it, else undefined (a reading check that must not write). */
  sharedIfMade<T>(key: string): Promise<T> | undefined;
  expect: Expectations;
  fail(failure: FailureInput): void;
  /** Like expect.that, but ends the check when the condition is false. */
  require(condition: unknown, failure: FailureInput): asserts condition;
  skip(reason: string): never;
  /** A remark shown with the result (e.g. what was not observable). */
  note(text: string): void;
  /** A remark about the whole run, shown once at the top of its reports (e.g. what the kit had to cut). */
  notice(text: string): void;
  /** Whether the deployment profile declared this field itself (rather than the simulator's default filling it). */
  declared(field: keyof DeploymentProfile): boolean;
  /**
   * A SHOULD check whose assumption the deployment declared (or the kit discovered): its failures
   * count as MUST in this run (severity policy). `reason` says why, in the result's notes.
   */
  judgeAsMust(reason: string): void;
  /** The secrets of the run (token, client secret), for leak checks; never print them. */
  secrets(): readonly string[];
  /**
   * Keeps a value the check derived from a secret out of every report (a token with one character changed),
   * printed as `$env` in curls; not leak-checked (the deployment never issued it).
   */
  redact(value: string, env: string): void;
  /** Every exchange of the run so far, with the check that made it (response rules judge them all). */
  exchanges(): readonly LoggedExchange[];
  /**
   * Asks the token endpoint for a new token of the run's client (client credentials) and sends it from then on;
   * false when the run was given a token (--token): the kit cannot renew it.
   */
  renewToken(): Promise<boolean>;
}

export interface CheckDef {
  /** <area>.<rule>, e.g. errors.code-status-pairing; the area groups reports. */
  name: string;
  /** The rule in one line. */
  title: string;
  severity: Severity;
  /** Heading of interface.md that states the rule. */
  section: InterfaceSection;
  tags: readonly string[];
  /** Creates or changes data on the target (skipped by the read-only profile). */
  mutating: boolean;
  requires?: readonly Requirement[];
  /** Runs after every other check of the run, to judge all their exchanges (the response rules). */
  judgesRun?: boolean;
  /**
   * Compares reads of tenant data that the run's own writes would move (one list read at two addresses):
   * runs after every check that makes calls and before the judging checks, so nothing of the run writes
   * while it reads (and the response rules still judge its exchanges). Reads only.
   */
  readsStill?: boolean;
  /**
   * Arms something the next matching call of the tenant takes (a fault of the control plane): runs after the
   * checks that make calls, one at a time, so no other check's call comes between, and before the reading
   * and judging checks (whose rules then judge its exchanges too).
   */
  alone?: boolean;
  /**
   * May use up what the deployment shares with every call of the run (a rate-limit burst): runs last,
   * after the judging checks and the cleanups, so no other call waits out the window it leaves spent.
   */
  exhausts?: (setting: { deployment: DeploymentProfile; target: TargetInfo }) => boolean;
  run(ctx: CheckContext): Promise<void>;
}

/** Public description of a check (events and reports). */
export interface CheckInfo {
  name: string;
  area: string;
  title: string;
  severity: Severity;
  section: string;
  tags: string[];
  mutating: boolean;
}

const NAME = /^[a-z][a-z0-9-]*\.[a-z0-9][a-z0-9-]*$/;

/**
 * Declares a check; validates its name and section at load time.
 * @example
 * export const publicSelfDescription = defineCheck({
 *   name: 'discovery.self-description-public', title: 'GET /api/public/v1 answers without credentials',
 *   severity: 'MUST', section: 'Authentication', tags: ['auth'], mutating: false,
 *   async run(ctx) { const ex = await ctx.call('GET', '/api/public/v1', { credentials: 'none' }); ctx.expect.status(ex, 200, 'answers 200'); },
 * });
 */
export function defineCheck(def: CheckDef): CheckDef {
  if (!NAME.test(def.name)) throw new Error(`check name ${def.name} must look like <area>.<rule> in kebab-case`);
  if (!(INTERFACE_SECTIONS as readonly string[]).includes(def.section))
    throw new Error(`check ${def.name}: ${def.section} is not a heading of the interface`);
  if (def.severity !== 'MUST' && def.severity !== 'SHOULD')
    throw new Error(`check ${def.name}: severity must be MUST or SHOULD`);
  return Object.freeze({ ...def, tags: Object.freeze([...def.tags]) });
}

export const areaOf = (name: string) => name.slice(0, name.indexOf('.'));

export function infoOf(def: CheckDef): CheckInfo {
  return {
    name: def.name,
    area: areaOf(def.name),
    title: def.title,
    severity: def.severity,
    section: def.section,
    tags: [...def.tags],
    mutating: def.mutating,
  };
}
