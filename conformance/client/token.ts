import type { KitClient } from './http-client.ts';

export interface ClientCredentials {
  /** Absolute URL of the token endpoint. */
  tokenUrl: string;
  clientId: string;
  clientSecret: string;
  /** Space-separated scopes to ask for (default: whatever the server grants). */
  scope?: string;
  /** How the client authenticates (RFC 8414 names): client_secret_basic (the default) or client_secret_post. */
  authMethod?: ClientAuthMethod;
  /** Further form fields the token endpoint needs (an Auth0 `audience`). */
  params?: Record<string, string>;
}

/** The client authentication methods the kit speaks, in the order it prefers them (RFC 6749 §2.3.1: Basic first). */
export const CLIENT_AUTH_METHODS = ['client_secret_basic', 'client_secret_post'] as const;
export type ClientAuthMethod = (typeof CLIENT_AUTH_METHODS)[number];

/**
 * The methods to try, in order, each after the one before was refused: those of the kit's that the
 * authorization server's metadata lists (`token_endpoint_auth_methods_supported`). Without a list (a
 * declared token endpoint, or metadata without it) client_secret_basic first, RFC 8414 §2's default, then
 * client_secret_post (the authorization server's endpoints are not shown, nor how it takes a secret). A
 * server listing none the kit speaks still gets client_secret_basic tried (its refusal is reported).
 * @example authMethodsToTry(['client_secret_post', 'private_key_jwt']) // ['client_secret_post']
 */
export function authMethodsToTry(supported: readonly string[] | undefined): ClientAuthMethod[] {
  if (!supported) return [...CLIENT_AUTH_METHODS];
  const spoken = CLIENT_AUTH_METHODS.filter((m) => supported.includes(m));
  return spoken.length ? spoken : ['client_secret_basic'];
}

/** The token endpoint refused or answered something unusable: a setup problem (exit code 2). */
export class TokenError extends Error {
  /** The token endpoint's status, when it answered (a refusal of the client's authentication: 400 or 401). */
  readonly status: number | undefined;
  constructor(message: string, status?: number) {
    super(message);
    this.name = 'TokenError';
    this.status = status;
  }
}

// RFC 6749 §2.3.1: id and secret are form-urlencoded before they are joined and base64-encoded.
const formEncode = (s: string) => encodeURIComponent(s).replace(/%20/g, '+');

/** The Basic credentials of client_secret_basic (register it with the redactor: it is a secret). */
export function basicCredentials(clientId: string, clientSecret: string): string {
  return Buffer.from(`${formEncode(clientId)}:${formEncode(clientSecret)}`).toString('base64');
}

/** The client secret as it stands in a form body (client_secret_post): register it with the redactor too. */
export const formEncodedSecret = (clientSecret: string) => new URLSearchParams({ s: clientSecret }).toString().slice(2);

/** The other origin a 3xx points to (the client does not follow those with credentials), or undefined. */
function redirectedElsewhere(url: string, status: number, location: string | undefined): string | undefined {
  if (status < 300 || status > 399 || !location) return undefined;
  try {
    const target = new URL(location, url).origin;
    return target === new URL(url).origin ? undefined : target;
  } catch {
    return undefined;
  }
}

/**
 * Client credentials grant: a form POST to the token endpoint, the client authenticated with
 * client_secret_basic (the default) or client_secret_post (`authMethod`).
 * @example const { accessToken } = await requestClientCredentialsToken(client, { tokenUrl, clientId, clientSecret });
 */
export async function requestClientCredentialsToken(
  client: KitClient,
  c: ClientCredentials,
): Promise<{ accessToken: string; expiresIn?: number; scope?: string }> {
  const form = new URLSearchParams({ grant_type: 'client_credentials' });
  if (c.scope) form.set('scope', c.scope);
  for (const [name, value] of Object.entries(c.params ?? {})) form.set(name, value);
  const post = c.authMethod === 'client_secret_post';
  if (post) {
    form.set('client_id', c.clientId);
    form.set('client_secret', c.clientSecret);
  }
  const ex = await client.send({
    method: 'POST',
    url: c.tokenUrl,
    headers: {
      ...(post ? {} : { authorization: `Basic ${basicCredentials(c.clientId, c.clientSecret)}` }),
      'content-type': 'application/x-www-form-urlencoded',
      accept: 'application/json',
    },
    body: form.toString(),
  });
  const refused = redirectedElsewhere(c.tokenUrl, ex.status, ex.headers.location);
  if (refused)
    throw new TokenError(
      `the token endpoint ${c.tokenUrl} answered ${ex.status}, redirecting to ${refused}; not followed: the request carries the client's credentials and ${refused} is another origin. Give the token endpoint itself with --token-url`,
      ex.status,
    );
  const json = ex.json as
    | {
        access_token?: unknown;
        token_type?: unknown;
        expires_in?: unknown;
        scope?: unknown;
        error?: unknown;
        error_description?: unknown;
      }
    | undefined;
  if (ex.status !== 200 || typeof json?.access_token !== 'string') {
    const code = typeof json?.error === 'string' ? json.error : undefined;
    // RFC 6749 §5.2: the description says what the endpoint missed (an audience, a scope): shown, cut short.
    const said = typeof json?.error_description === 'string' ? json.error_description.slice(0, 200) : undefined;
    const reason = code ? `${code}${said ? `: ${said}` : ''}` : ex.text.slice(0, 120);
    throw new TokenError(
      `the token endpoint ${c.tokenUrl} answered ${ex.status}${reason ? ` (${reason})` : ''} to ${c.authMethod ?? 'client_secret_basic'}; check --client-id, --client-secret and --token-url${code && code !== 'invalid_client' ? ', and whether it needs further parameters (--token-params, e.g. audience=…)' : ''}`,
      ex.status,
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
