import { FailureEnvelope } from '../../contract/envelope.ts';
import { ERROR_TABLE, type ErrorCode } from '../../contract/errors.ts';

/** Text that must never appear in a response: stack frames, source paths, module internals. */
const LEAKS = [
  /\bat [\w$.<>]+ \(/,
  /\.ts:\d+/,
  /node_modules/,
  /\/work\//,
  /\bTypeError\b|\bRangeError\b|\bSyntaxError\b/,
];

export interface Observed {
  status: number;
  headers: Record<string, string>;
  body?: string | undefined;
}

/** Checks one response against the invariants; returns the broken ones (empty = fine). `method` HEAD: no body expected. */
export function brokenInvariants(res: Observed, secrets: string[], method = 'GET'): string[] {
  const broken: string[] = [];
  const body = res.body ?? '';
  // HEAD is GET without the body: only the status and the absence of a body can be judged.
  if (method === 'HEAD') {
    if (body || (res as { stream?: unknown }).stream) broken.push('HEAD answered with a body');
    if (res.status === 500) broken.push('500 internal for client input');
    return broken;
  }
  for (const leak of LEAKS) if (leak.test(body)) broken.push(`leaks ${leak}`);
  for (const secret of secrets) if (secret && body.includes(secret)) broken.push('echoes a secret');
  if (res.status === 500) broken.push('500 internal for client input');
  if (res.status >= 400) {
    let json: unknown;
    try {
      json = JSON.parse(body);
    } catch {
      broken.push('error body is not JSON');
      return broken;
    }
    const parsed = FailureEnvelope.safeParse(json);
    if (!parsed.success) broken.push(`not the failure envelope: ${parsed.error.issues[0]?.message}`);
    else {
      const code = parsed.data.error.code as ErrorCode;
      if (ERROR_TABLE[code].status !== res.status) broken.push(`code ${code} with status ${res.status}`);
      if (res.headers['x-request-id'] !== parsed.data.meta.requestId)
        broken.push('X-Request-Id differs from meta.requestId');
    }
  } else if (res.status !== 200) broken.push(`unexpected status ${res.status}`);
  return broken;
}
