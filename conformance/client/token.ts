import type { KitClient } from './http-client.ts';

export interface ClientCredentials {
  /** Absolute URL of the token endpoint. */
  tokenUrl: string;
  clientId: string;
  clientSecret: string;
  /** Space-separated scopes to ask for (default: whatever the server grants). */
  scope?: string;
}

/** The token endpoint refused or answered something unusable: a setup problem (exit code 2). */
export class TokenError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'TokenError';
  }
}

// RFC 6749 §2.3.1: id and secret are form-urlencoded before they are joined and base64-encoded.
const formEncode = (s: string) => encodeURIComponent(s).replace(/%20/g, '+');

/** The Basic credentials of client_secret_basic (register it with the redactor: it is a secret). */
export function basicCredentials(clientId: string, clientSecret: string): string {
  return Buffer.from(`${formEncode(clientId)}:${formEncode(clientSecret)}`).toString('base64');
}

/**
 * Client credentials grant with client_secret_basic: a form POST to the token endpoint.
 * @example const { accessToken } = await requestClientCredentialsToken(client, { tokenUrl, clientId, clientSecret });
 */
export async function requestClientCredentialsToken(
  client: KitClient,
  c: ClientCredentials,
): Promise<{ accessToken: string; expiresIn?: number; scope?: string }> {
  const form = new URLSearchParams({ grant_type: 'client_credentials' });
  if (c.scope) form.set('scope', c.scope);
  const ex = await client.send({
    method: 'POST',
    url: c.tokenUrl,
    headers: {
      authorization: `Basic ${basicCredentials(c.clientId, c.clientSecret)}`,
      'content-type': 'application/x-www-form-urlencoded',
      accept: 'application/json',
    },
    body: form.toString(),
  });
  const json = ex.json as
    | { access_token?: unknown; token_type?: unknown; expires_in?: unknown; scope?: unknown; error?: unknown }
    | undefined;
  if (ex.status !== 200 || typeof json?.access_token !== 'string') {
    const reason = typeof json?.error === 'string' ? json.error : `${ex.text.slice(0, 120)}`;
    throw new TokenError(
      `the token endpoint ${c.tokenUrl} answered ${ex.status}${reason ? ` (${reason})` : ''}; check --client-id, --client-secret and --token-url`,
    );
  }
  if (typeof json.token_type === 'string' && json.token_type.toLowerCase() !== 'bearer') {
    throw new TokenError(`the token endpoint issued a ${json.token_type} token; the interface needs a bearer token`);
  }
  return {
    accessToken: json.access_token,
    ...(typeof json.expires_in === 'number' ? { expiresIn: json.expires_in } : {}),
    ...(typeof json.scope === 'string' ? { scope: json.scope } : {}),
  };
}
