import { BASE_PATH } from '../../simulator/contract/versions.ts';
import type { FetchLike } from '../client/http-client.ts';
import type { RetryOptions } from '../../simulator/contract/retry-policy.ts';
import type { CheckDef, ProfileName } from './check.ts';
import { DeploymentProfile, loadDeploymentProfile, parseDeploymentProfile } from './deployment-profile.ts';
import type { RunEventListener } from './events.ts';

/** Options of runConformance; the CLI and environment variables map onto the same names. */
export interface ConformanceOptions {
  /** Where the interface lives, e.g. https://staging.example (a trailing /api/public/v1 is accepted). */
  baseUrl?: string;
  /** The interface's second address; alt-base-url checks are skipped without it. */
  altBaseUrl?: string;
  /** x-service-tenant for authenticated calls (required with credentials). */
  tenant?: string;
  token?: string;
  clientId?: string;
  clientSecret?: string;
  /** Token endpoint for client credentials (default: the deployment profile's, on the base URL's origin). */
  tokenUrl?: string;
  scope?: string;
  /** A second tenant the same credentials may act for (tenant-isolation checks are skipped without it). */
  otherTenant?: string;
  /** A tenant the credentials are NOT released for (errors.forbidden-tenant is skipped without it). */
  foreignTenant?: string;
  /** Admin token of the deployment's sandbox control plane (checks that arm faults are skipped without it). */
  adminToken?: string;
  /** full or read-only; default read-only for production targets, else full. */
  profile?: ProfileName;
  /** Declares the target's environment (production: read-only by default). */
  environment?: string;
  /** Lets modifying checks run against a production target. */
  allowMutations?: boolean;
  /** Only checks whose name, tags or section match (regular expression). */
  grep?: string | RegExp;
  /** Per request, milliseconds (default 10000). */
  timeoutMs?: number;
  /** Checks run at once (default 4). */
  concurrency?: number;
  /** Path of a JSON file or the values themselves; completed with the simulator's defaults. */
  deploymentProfile?: string | Partial<DeploymentProfile>;
  /** Default: the undici package's fetch. globalThis.fetch runs the kit against MSW handlers. */
  fetch?: FetchLike;
  /** The interface retry policy's injectable parts (sleep, random), or false for none. */
  retry?: RetryOptions | false;
  /** The checks to run (default: every registered check). */
  checks?: readonly CheckDef[];
  /** Seed of the generated probes (default: random; printed in every report, so a run can be repeated). */
  seed?: number;
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
  /** Seed of the generated probes: given, or drawn for this run. */
  seed: number;
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
    seed: seedOf(o.seed),
  };
}

const flag = (v: string | undefined) => v !== undefined && /^(1|true|yes)$/i.test(v.trim());
const num = (v: string | undefined) => (v === undefined || v.trim() === '' ? undefined : Number(v));

/**
 * Options from NCS_* environment variables (CI sets them once; flags win over them).
 * @example runConformance({ ...optionsFromEnv(process.env), grep: 'errors' })
 */
export function optionsFromEnv(env: Record<string, string | undefined> = process.env): ConformanceOptions {
  const pick = (name: string) => (env[name] === undefined || env[name] === '' ? undefined : env[name]);
  const o: ConformanceOptions = {};
  const set = <K extends keyof ConformanceOptions>(key: K, value: ConformanceOptions[K] | undefined) => {
    if (value !== undefined) o[key] = value;
  };
  set('baseUrl', pick('NCS_BASE_URL'));
  set('altBaseUrl', pick('NCS_ALT_BASE_URL'));
  set('tenant', pick('NCS_TENANT'));
  set('token', pick('NCS_TOKEN'));
  set('clientId', pick('NCS_CLIENT_ID'));
  set('clientSecret', pick('NCS_CLIENT_SECRET'));
  set('tokenUrl', pick('NCS_TOKEN_URL'));
  set('scope', pick('NCS_SCOPE'));
  set('otherTenant', pick('NCS_OTHER_TENANT'));
  set('foreignTenant', pick('NCS_FOREIGN_TENANT'));
  set('adminToken', pick('NCS_ADMIN_TOKEN'));
  set('profile', pick('NCS_PROFILE') as ProfileName | undefined);
  set('environment', pick('NCS_ENVIRONMENT'));
  if (pick('NCS_ALLOW_MUTATIONS') !== undefined) o.allowMutations = flag(pick('NCS_ALLOW_MUTATIONS'));
  set('grep', pick('NCS_GREP'));
  set('timeoutMs', num(pick('NCS_TIMEOUT')));
  set('concurrency', num(pick('NCS_CONCURRENCY')));
  set('deploymentProfile', pick('NCS_DEPLOYMENT_PROFILE'));
  set('seed', num(pick('NCS_SEED')));
  return o;
}
