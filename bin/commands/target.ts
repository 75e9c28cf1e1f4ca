// Where a command finds the deployment: flags, then a `ncs serve --ready-file`, then NCS_* variables; and
// how it says that the deployment cannot be reached (the same line in every command).
import { readFileSync } from 'node:fs';
import { BASE_PATH } from '../../simulator/contract/versions.ts';
import { UsageError } from './usage.ts';

/** The simulator's default address when neither a flag, a ready file nor NCS_BASE_URL names one. */
export const DEFAULT_BASE_URL = 'http://127.0.0.1:4010';

/** What `ncs serve --ready-file` writes. */
export interface ReadyInfo {
  baseUrl?: string;
  token?: string;
  tenant?: string;
  adminToken?: string;
}

/**
 * Reads a ready file; an unreadable or non-JSON file is a usage error.
 * @example readReadyFile('/tmp/ncs.json').baseUrl
 */
export function readReadyFile(path: string | undefined): ReadyInfo {
  if (!path) return {};
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch (err) {
    throw new UsageError(`cannot read the ready file ${path}: ${(err as Error).message}`);
  }
  try {
    return JSON.parse(text) as ReadyInfo;
  } catch {
    throw new UsageError(`the ready file ${path} is not JSON (ncs serve --ready-file writes it)`);
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
