import type { PlainResponse } from '../core/types.ts';

/** Error codes of RFC 6749 (sections 4.1.2.1 and 5.2) and RFC 7009 that this server answers with. */
export type OAuthErrorCode =
  | 'invalid_request'
  | 'invalid_client'
  | 'invalid_grant'
  | 'unauthorized_client'
  | 'unsupported_grant_type'
  | 'invalid_scope'
  | 'unsupported_response_type'
  | 'access_denied'
  | 'not_found';

/**
 * Thrown inside the authorization server; answered as RFC 6749 JSON ({error, error_description}), not
 * with the API envelope, because OAuth client libraries parse that shape.
 * @example throw new OAuthError('invalid_grant', 'The authorization code has expired.');
 */
export class OAuthError extends Error {
  readonly code: OAuthErrorCode;
  readonly status: number;
  readonly headers: Record<string, string>;

  constructor(
    code: OAuthErrorCode,
    description: string,
    opts: { status?: number; headers?: Record<string, string> } = {},
  ) {
    super(description);
    this.code = code;
    // RFC 6749 5.2: 400 for everything but a failed client authentication, which is 401 with a challenge.
    this.status = opts.status ?? (code === 'invalid_client' ? 401 : 400);
    this.headers =
      code === 'invalid_client'
        ? { 'www-authenticate': 'Basic realm="ncs-sandbox", charset="UTF-8"', ...opts.headers }
        : (opts.headers ?? {});
  }
}

/** Token and error answers must never be cached (RFC 6749 5.1). */
export const NO_STORE = { 'cache-control': 'no-store', pragma: 'no-cache' } as const;

/** A JSON answer of the authorization server. */
export function oauthJson(
  status: number,
  body: unknown,
  requestId: string,
  headers: Record<string, string> = {},
): PlainResponse {
  return {
    status,
    headers: { 'content-type': 'application/json; charset=utf-8', 'x-request-id': requestId, ...NO_STORE, ...headers },
    body: JSON.stringify(body),
  };
}

/** RFC 6749 5.2 limits error_description to printable ASCII without " and \. */
export function errorDescription(text: string): string {
  return text.normalize('NFKD').replace(/[^\x20\x21\x23-\x5B\x5D-\x7E]/g, '');
}

/** The RFC 6749 error body for an OAuthError. */
export function oauthErrorResponse(err: OAuthError, requestId: string): PlainResponse {
  return oauthJson(
    err.status,
    { error: err.code, error_description: errorDescription(err.message) },
    requestId,
    err.headers,
  );
}
