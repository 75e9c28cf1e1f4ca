// A client of the OAuth surface: an access token by client credentials (what `ncs token` prints).
import { cannotReach } from '../lib/reach.ts';

export interface TokenCommandOptions {
  /** Where the simulator runs, with or without /api/public/v1 (default http://127.0.0.1:4010). */
  baseUrl?: string;
  clientId: string;
  clientSecret: string;
  /** Space- or comma-separated scopes (default: all of the client's). */
  scope?: string;
  /** Print the whole token answer as JSON instead of the bare access token. */
  json?: boolean;
  fetch?: typeof fetch;
}

/** The token endpoint refused: carries the RFC 6749 error code and description. */
export class TokenRequestError extends Error {
  readonly error: string;
  readonly status: number;
  constructor(status: number, error: string, description?: string) {
    super(`the token endpoint answered ${status} ${error}${description ? `: ${description}` : ''}`);
    this.name = 'TokenRequestError';
    this.error = error;
    this.status = status;
  }
}

/**
 * `ncs token`: an access token from a running simulator by client credentials (client_secret_basic),
 * for curl users. Returns the text to print: the bare token, or the whole answer as JSON.
 * @example const token = await requestToken({ clientId: 'harbour-backend', clientSecret: process.env.NCS_SECRET! });
 */
export async function requestToken(opts: TokenCommandOptions): Promise<string> {
  // The interface's base URL (…/api/public/v1) names the same deployment as its origin.
  const base = (opts.baseUrl ?? 'http://127.0.0.1:4010').replace(/\/+$/, '').replace(/\/api\/public\/v1$/, '');
  const form = new URLSearchParams({ grant_type: 'client_credentials' });
  const scope = opts.scope
    ?.split(/[\s,]+/)
    .filter(Boolean)
    .join(' ');
  if (scope) form.set('scope', scope);
  // RFC 6749 2.3.1: id and secret are form-encoded before they are joined for Basic.
  const credentials = Buffer.from(
    `${encodeURIComponent(opts.clientId)}:${encodeURIComponent(opts.clientSecret)}`,
  ).toString('base64');
  const doFetch = opts.fetch ?? globalThis.fetch;
  let res: Response;
  try {
    res = await doFetch(`${base}/oauth/token`, {
      method: 'POST',
      headers: {
        authorization: `Basic ${credentials}`,
        'content-type': 'application/x-www-form-urlencoded',
        accept: 'application/json',
      },
      body: form.toString(),
    });
  } catch (err) {
    throw new Error(cannotReach(base, err), { cause: err });
  }
  const text = await res.text();
  let body: Record<string, unknown> = {};
  try {
    body = JSON.parse(text);
  } catch {
    // Not JSON: reported below by status.
  }
  if (!res.ok || typeof body.access_token !== 'string') {
    throw new TokenRequestError(
      res.status,
      typeof body.error === 'string' ? body.error : 'unexpected answer',
      typeof body.error_description === 'string' ? body.error_description : undefined,
    );
  }
  return opts.json ? JSON.stringify(body, null, 2) : body.access_token;
}
