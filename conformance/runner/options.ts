import { readFileSync } from 'node:fs';
import { optionsFrom } from '../../simulator/contract/option-table.ts';
import type { RetryOptions } from '../../simulator/contract/retry-policy.ts';
import { BASE_PATH } from '../../simulator/contract/versions.ts';
import { DEFAULT_MAX_BODY_BYTES, DEFAULT_MAX_STREAM_BYTES, type FetchLike } from '../client/http-client.ts';
import type { CheckDef, ProfileName } from './check.ts';
import { RUN_OPTIONS, type RunTableOptions } from './command-options.ts';
import type { CoverageRequirement } from './coverage.ts';
import { type DeploymentProfile, loadDeploymentProfile, parseDeploymentProfile } from './deployment-profile.ts';
import type { RunEventListener } from './events.ts';

/**
 * Options of runConformance: the rows of RUN_OPTIONS (./command-options.ts; the CLI and the NCS_*
 * variables map onto the same names) and what only code can give.
 */
export interface ConformanceOptions extends Omit<RunTableOptions, 'grep' | 'deploymentProfile' | 'require'> {
  /** Only checks whose name, tags or section match (regular expression). */
  grep?: string | RegExp;
  /**
   * Coverage the run must reach or it fails (exit 1): a fraction of the checks judged (e.g. 0.8), or
   * check names that must be judged (passed or failed, not skipped), comma-separated or as a list.
   */
  require?: string | number | readonly string[];
  /** Path of a JSON file or the values themselves; completed with the simulator's defaults. */
  deploymentProfile?: string | Partial<DeploymentProfile>;
  /** Default: the undici package's fetch. globalThis.fetch runs the kit against MSW handlers. */
  fetch?: FetchLike;
  /** The interface retry policy's injectable parts (sleep, random), or false for none. */
  retry?: RetryOptions | false;
  /** The checks to run (default: every registered check). */
  checks?: readonly CheckDef[];
  onEvent?: RunEventListener;
}

export type Credentials =
  | { kind: 'token'; token: string }
  | {
      kind: 'client-credentials';
      /** Absent: discovered at run time (RFC 8414 metadata, the self-description), else the simulator's path. */
      tokenUrl?: string;
      clientId: string;
      clientSecret: string;
      scope?: string;
      /** Further form fields of the token request (an audience), from the profile and --token-params. */
      params?: Record<string, string>;
    }
  | { kind: 'none' };

/** Form fields the kit sets itself: --token-params may not replace them (the client's credentials, the grant). */
const OWN_TOKEN_FIELDS = new Set(['grant_type', 'client_id', 'client_secret', 'scope']);

/**
 * The token request's further fields: the profile's, then --token-params (form-encoded) over them.
 * @example tokenParams({ audience: 'a' }, 'resource=r') // { audience: 'a', resource: 'r' }
 */
export function tokenParams(declared: Record<string, string> | undefined, flag: string | undefined) {
  const out: Record<string, string> = { ...declared };
  for (const [name, value] of new URLSearchParams(flag ?? '')) out[name] = value;
  const own = Object.keys(out).filter((n) => OWN_TOKEN_FIELDS.has(n));
  if (own.length)
    throw new UsageError(
      `--token-params (or the profile's tokenRequestParams) may not set ${own.join(', ')}: the kit sends those itself (--client-id, --client-secret, --scope)`,
    );
  return Object.keys(out).length ? out : undefined;
}

export interface ResolvedOptions {
  baseUrl: string;
  altBaseUrl?: string;
  tenant?: string;
  otherTenant?: string;
  foreignTenant?: string;
  adminToken?: string;
  credentials: Credentials;
  /** Only when given explicitly; otherwise decided from the environment. */
  profile?: ProfileName;
  environment?: string;
  allowMutations: boolean;
  grep?: RegExp;
  timeoutMs: number;
  concurrency: number;
  webhookTimeoutMs: number;
  streamTimeoutMs: number;
  require?: CoverageRequirement;
  maxBodyBytes: number;
  maxStreamBytes: number;
  deployment: DeploymentProfile;
  /** The profile fields the deployment declared itself (not filled in with the simulator's defaults). */
  declaredFields: string[];
  /** Seed of the generated probes: given, or drawn for this run. */
  seed: number;
  /** Stop after this many failed MUST checks (--max-failures, --fail-fast); absent: run every check. */
  maxFailures?: number;
}

export type { CoverageRequirement };

/** Parses --require: "0.8", "80%" or "name,name". */
export function parseRequire(value: string | number | readonly string[]): CoverageRequirement {
  if (typeof value === 'number') return fraction(value);
  if (Array.isArray(value)) return checksRequired(value as readonly string[]);
  const text = String(value).trim();
  if (/^\d+(?:\.\d+)?%$/.test(text)) return fraction(Number(text.slice(0, -1)) / 100);
  if (/^\d*\.?\d+$/.test(text)) return fraction(Number(text));
  return checksRequired(text.split(','));
}
function fraction(n: number): CoverageRequirement {
  if (!Number.isFinite(n) || n < 0 || n > 1)
    throw new UsageError('--require takes a fraction from 0 to 1 (e.g. 0.8 or 80%) or check names');
  return { fraction: n };
}
function checksRequired(names: readonly string[]): CoverageRequirement {
  const checks = names.map((n) => n.trim()).filter(Boolean);
  if (checks.length === 0) throw new UsageError('--require takes a fraction from 0 to 1 or check names');
  return { checks };
}

/** Wrong or missing options: exit code 2. */
export class UsageError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'UsageError';
  }
}

function baseUrlOf(value: string, flag: string): string {
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    throw new UsageError(`${flag} must be an absolute http(s) URL, not ${JSON.stringify(value)}`);
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') throw new UsageError(`${flag} must use http or https`);
  const path = url.pathname.replace(/\/+$/, '');
  const root = path.endsWith(BASE_PATH) ? path.slice(0, -BASE_PATH.length) : path;
  return `${url.origin}${root}`;
}

/** The largest seed: fast-check takes 32-bit seeds. */
const MAX_SEED = 2 ** 31 - 1;

function seedOf(value: number | undefined): number {
  if (value === undefined) return Math.floor(Math.random() * MAX_SEED);
  if (!Number.isInteger(value) || value < 0 || value > MAX_SEED)
    throw new UsageError(`--seed must be a whole number from 0 to ${MAX_SEED}`);
  return value;
}

function positiveInt(value: number | undefined, flag: string, fallback: number): number {
  if (value === undefined) return fallback;
  if (!Number.isInteger(value) || value <= 0) throw new UsageError(`${flag} must be a positive whole number`);
  return value;
}

/** Validates options and fills in defaults; throws UsageError naming the flag. */
export function resolveOptions(o: ConformanceOptions): ResolvedOptions {
  if (!o.baseUrl) throw new UsageError('--base-url is required (or NCS_BASE_URL)');
  const baseUrl = baseUrlOf(o.baseUrl, '--base-url');
  const altBaseUrl = o.altBaseUrl ? baseUrlOf(o.altBaseUrl, '--alt-base-url') : undefined;
  if (o.profile !== undefined && o.profile !== 'full' && o.profile !== 'read-only')
    throw new UsageError('--profile must be full or read-only');
  let deployment: DeploymentProfile;
  let declaredFields: string[] = [];
  try {
    deployment =
      typeof o.deploymentProfile === 'string'
        ? loadDeploymentProfile(o.deploymentProfile)
        : parseDeploymentProfile(o.deploymentProfile);
    declaredFields =
      typeof o.deploymentProfile === 'string'
        ? Object.keys(JSON.parse(readFileSync(o.deploymentProfile, 'utf8')) as object)
        : Object.keys(o.deploymentProfile ?? {});
  } catch (err) {
    throw new UsageError((err as Error).message);
  }
  let credentials: Credentials = { kind: 'none' };
  if (o.token) {
    if (o.clientId || o.clientSecret)
      throw new UsageError('give either --token or --client-id/--client-secret, not both');
    credentials = { kind: 'token', token: o.token };
  } else if (o.clientId || o.clientSecret) {
    if (!o.clientId || !o.clientSecret) throw new UsageError('--client-id and --client-secret go together');
    const declared = o.tokenUrl ?? deployment.tokenEndpoint;
    credentials = {
      kind: 'client-credentials',
      ...(declared ? { tokenUrl: new URL(declared, `${new URL(baseUrl).origin}/`).toString() } : {}),
      clientId: o.clientId,
      clientSecret: o.clientSecret,
      ...(o.scope ? { scope: o.scope } : {}),
    };
    const params = tokenParams(deployment.tokenRequestParams, o.tokenParams);
    if (params) credentials.params = params;
  }
  if (credentials.kind !== 'none' && !o.tenant)
    throw new UsageError('--tenant is required with credentials (authenticated calls send x-service-tenant)');
  if (o.otherTenant !== undefined && o.otherTenant === o.tenant)
    throw new UsageError('--other-tenant must name a tenant other than --tenant');
  if (o.foreignTenant !== undefined && (o.foreignTenant === o.tenant || o.foreignTenant === o.otherTenant))
    throw new UsageError('--foreign-tenant must name a tenant the credentials are not released for');
  let grep: RegExp | undefined;
  if (o.grep instanceof RegExp) grep = o.grep;
  else if (o.grep) {
    try {
      grep = new RegExp(o.grep, 'i');
    } catch {
      throw new UsageError(`--grep ${JSON.stringify(o.grep)} is not a regular expression`);
    }
  }
  return {
    baseUrl,
    ...(altBaseUrl ? { altBaseUrl } : {}),
    ...(o.tenant ? { tenant: o.tenant } : {}),
    ...(o.otherTenant ? { otherTenant: o.otherTenant } : {}),
    ...(o.foreignTenant ? { foreignTenant: o.foreignTenant } : {}),
    ...(o.adminToken ? { adminToken: o.adminToken } : {}),
    credentials,
    ...(o.profile ? { profile: o.profile } : {}),
    ...((o.environment ?? deployment.environment) ? { environment: o.environment ?? deployment.environment } : {}),
    allowMutations: o.allowMutations ?? false,
    ...(grep ? { grep } : {}),
    timeoutMs: positiveInt(o.timeoutMs, '--timeout', 10_000),
    concurrency: positiveInt(o.concurrency, '--concurrency', 4),
    webhookTimeoutMs: positiveInt(o.webhookTimeoutMs, '--webhook-timeout', deployment.webhookDeliveryWaitMs),
    streamTimeoutMs: positiveInt(o.streamTimeoutMs, '--stream-timeout', deployment.streamMessageWaitMs),
    ...(o.require !== undefined ? { require: parseRequire(o.require) } : {}),
    maxBodyBytes: positiveInt(o.maxBodyBytes, '--max-body-bytes', DEFAULT_MAX_BODY_BYTES),
    maxStreamBytes: positiveInt(o.maxStreamBytes, '--max-stream-bytes', DEFAULT_MAX_STREAM_BYTES),
    deployment,
    declaredFields,
    seed: seedOf(o.seed),
    ...maxFailuresOf(o),
  };
}

/** --fail-fast is --max-failures 1; both given must agree. */
function maxFailuresOf(o: ConformanceOptions): { maxFailures?: number } {
  const n = o.maxFailures === undefined ? undefined : positiveInt(o.maxFailures, '--max-failures', 1);
  if (o.failFast && n !== undefined && n !== 1)
    throw new UsageError('--fail-fast stops after the first failure: give it or --max-failures, not both');
  if (o.failFast) return { maxFailures: 1 };
  return n === undefined ? {} : { maxFailures: n };
}

/**
 * Options from NCS_* environment variables (CI sets them once; flags win over them).
 * @example runConformance({ ...optionsFromEnv(process.env), grep: 'errors' })
 */
export function optionsFromEnv(env: Record<string, string | undefined> = process.env): ConformanceOptions {
  return optionsFrom(RUN_OPTIONS, {}, env);
}
