import { BASE_PATH } from '../../simulator/contract/versions.ts';
import type { FetchLike } from '../client/http-client.ts';
import type { RetryOptions } from '../../simulator/contract/retry-policy.ts';
import type { CheckDef, ProfileName } from './check.ts';
import { DeploymentProfile, loadDeploymentProfile, parseDeploymentProfile } from './deployment-profile.ts';
import type { RunEventListener } from './events.ts';
import { optionsFrom } from '../../simulator/contract/option-table.ts';
import { RUN_OPTIONS, type RunTableOptions } from './command-options.ts';

/**
 * Options of runConformance: the rows of RUN_OPTIONS (./command-options.ts; the CLI and the NCS_*
 * variables map onto the same names) and what only code can give.
 */
export interface ConformanceOptions extends Omit<RunTableOptions, 'grep' | 'deploymentProfile'> {
  /** Only checks whose name, tags or section match (regular expression). */
  grep?: string | RegExp;
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
  | { kind: 'client-credentials'; tokenUrl: string; clientId: string; clientSecret: string; scope?: string }
  | { kind: 'none' };

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
  deployment: DeploymentProfile;
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
  try {
    deployment =
      typeof o.deploymentProfile === 'string'
        ? loadDeploymentProfile(o.deploymentProfile)
        : parseDeploymentProfile(o.deploymentProfile);
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
    const tokenUrl = new URL(o.tokenUrl ?? deployment.tokenEndpoint, `${new URL(baseUrl).origin}/`).toString();
    credentials = {
      kind: 'client-credentials',
      tokenUrl,
      clientId: o.clientId,
      clientSecret: o.clientSecret,
      ...(o.scope ? { scope: o.scope } : {}),
    };
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
    deployment,
  };
}

/**
 * Options from NCS_* environment variables (CI sets them once; flags win over them).
 * @example runConformance({ ...optionsFromEnv(process.env), grep: 'errors' })
 */
export function optionsFromEnv(env: Record<string, string | undefined> = process.env): ConformanceOptions {
  return optionsFrom(RUN_OPTIONS, {}, env);
}
