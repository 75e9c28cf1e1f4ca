// Where a command finds the deployment: flags, then a `ncs serve --ready-file`, then NCS_* variables; and
// how it says that the deployment cannot be reached (the same line in every command).
import { type ReadyFile, ReadyFileError, readReadyFile as readReady } from '../../../simulator/contract/ready-file.ts';
import { BASE_PATH } from '../../../simulator/contract/versions.ts';
import type { ControlClientOptions } from '../../../simulator/control/client.ts';
import { reachingFetch } from '../../../simulator/lib/reach.ts';
import { UsageError } from './usage.ts';

/** The simulator's default address when neither a flag, a ready file nor NCS_BASE_URL names one. */
export const DEFAULT_BASE_URL = 'http://127.0.0.1:4010';

/**
 * Reads a ready file through its schema (simulator/contract/ready-file.ts); none given, nothing.
 * An unreadable, non-JSON or foreign file is a usage error.
 * @example readReadyFile('/tmp/ncs.json').baseUrl
 */
export function readReadyFile(path: string | undefined): Partial<ReadyFile> {
  if (!path) return {};
  try {
    return readReady(path);
  } catch (err) {
    if (err instanceof ReadyFileError) throw new UsageError(err.message);
    throw err;
  }
}

/**
 * The deployment's root: an absolute http(s) URL without trailing slashes or the interface's
 * /api/public/v1, so both spellings of a base URL work in every command.
 * @example baseUrlOf('http://127.0.0.1:4010/api/public/v1/') // 'http://127.0.0.1:4010'
 */
export function baseUrlOf(value: string | undefined, env = process.env): string {
  const text = value ?? env.NCS_BASE_URL ?? DEFAULT_BASE_URL;
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    throw new UsageError(`--base-url must be an absolute http(s) URL, not ${JSON.stringify(text.slice(0, 80))}`);
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') throw new UsageError('--base-url must use http or https');
  const path = url.pathname.replace(/\/+$/, '');
  return `${url.origin}${path.endsWith(BASE_PATH) ? path.slice(0, -BASE_PATH.length) : path}`;
}

export interface SandboxCliOptions {
  baseUrl?: string;
  adminToken?: string;
  readyFile?: string;
}

/**
 * Where the control plane is: --ready-file, else --base-url/--admin-token, else NCS_BASE_URL/NCS_ADMIN_TOKEN.
 * @example resolveControl({ readyFile: '/tmp/ncs.json' }) // { baseUrl, adminToken, fetch }
 */
export function resolveControl(opts: SandboxCliOptions, env = process.env): ControlClientOptions {
  const ready = readReadyFile(opts.readyFile);
  const adminToken = opts.adminToken ?? ready.adminToken ?? env.NCS_ADMIN_TOKEN;
  if (!adminToken)
    throw new UsageError('the control plane needs the admin token: --admin-token, NCS_ADMIN_TOKEN or --ready-file');
  const baseUrl = baseUrlOf(opts.baseUrl ?? ready.baseUrl, env);
  return { baseUrl, adminToken, fetch: reachingFetch(globalThis.fetch, baseUrl) };
}
