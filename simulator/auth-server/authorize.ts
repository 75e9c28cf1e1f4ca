import type { PlainRequest, PlainResponse } from '../core/types.ts';
import type { ClientRecord } from '../services/client-service.ts';
import { expiredAccessMessage } from './client-auth.ts';
import { consentPage } from './consent-page.ts';
import type { AuthServerDeps } from './deps.ts';
import { OAUTH_PATHS } from './metadata.ts';
import { errorDescription, NO_STORE, OAuthError } from './oauth-error.ts';
import { formParams, type OAuthParams, queryParams } from './params.ts';
import { S256_CHALLENGE } from './pkce.ts';
import { redirectMatches } from './redirect-match.ts';
import { resolveScopes } from './scope-request.ts';
import { signInTestPerson } from './sign-in.ts';

/**
 * Until the redirect URI is known to belong to the client, errors are shown to the person (400 JSON)
 * and never redirected: an open redirector would hand codes to strangers (RFC 6749 4.1.2.1).
 */
async function trustedRedirect(
  params: OAuthParams,
  deps: AuthServerDeps,
): Promise<{ client: ClientRecord; redirectUri: string }> {
  const id = params.client_id;
  if (id === undefined) throw new OAuthError('invalid_request', 'The parameter client_id is missing.');
  const client = await deps.state.clients.get(id);
  if (!client) throw new OAuthError('invalid_request', 'client_id names no registered client.');
  if (client.type === 'service-account') {
    throw new OAuthError(
      'unauthorized_client',
      'A service account acts for no person: use client_credentials at the token endpoint.',
    );
  }
  const expired = expiredAccessMessage(client, deps.state.clock);
  if (expired) throw new OAuthError('invalid_request', expired);
  const registered = client.redirectUris ?? [];
  if (!registered.length)
    throw new OAuthError(
      'invalid_request',
      `${client.id} has no registered redirect URI, so it cannot use the authorization code flow.`,
    );
  const sent = params.redirect_uri;
  if (sent === undefined) {
    const [only] = registered;
    if (registered.length === 1 && only !== undefined) return { client, redirectUri: only };
    throw new OAuthError(
      'invalid_request',
      'The parameter redirect_uri is missing; this client has several registered.',
    );
  }
  // Exact string comparison (OAuth 2.1 2.3.1): no prefix, no normalisation; a loopback IP's port is free (8.4.2).
  if (!registered.some((uri) => redirectMatches(uri, sent)))
    throw new OAuthError(
      'invalid_request',
      'redirect_uri is not registered for this client (exact match required; only a loopback IP redirect URI may name another port).',
    );
  return { client, redirectUri: sent };
}

function redirectTo(redirectUri: string, values: Record<string, string | undefined>, requestId: string): PlainResponse {
  const url = new URL(redirectUri);
  for (const [k, v] of Object.entries(values)) if (v !== undefined) url.searchParams.append(k, v);
  return { status: 302, headers: { location: url.href, 'x-request-id': requestId, ...NO_STORE } };
}

/**
 * GET /oauth/authorize: the sandbox signs in a fixture person (login_hint = person id or e-mail),
 * consents automatically (or shows a consent page with prompt=consent) and redirects back with code,
 * state and iss. POST /oauth/authorize takes the decision of the consent page.
 * @example await authorizeEndpoint(req, 'req_1', deps, 'http://127.0.0.1:4010') // 302 Location: <redirect_uri>?code=…&state=…&iss=…
 */
export async function authorizeEndpoint(
  req: PlainRequest,
  requestId: string,
  deps: AuthServerDeps,
  issuer: string,
): Promise<PlainResponse> {
  const params = req.method === 'POST' ? formParams(req) : queryParams(req.query);
  const { client, redirectUri } = await trustedRedirect(params, deps);
  const answer = (values: Record<string, string | undefined>) =>
    redirectTo(redirectUri, { ...values, state: params.state, iss: issuer }, requestId);
  try {
    if (params.response_type === undefined)
      throw new OAuthError('invalid_request', 'The parameter response_type is missing (code).');
    if (params.response_type !== 'code')
      throw new OAuthError('unsupported_response_type', 'Only response_type=code is supported.');
    const scopes = resolveScopes(params.scope, client.scopes);
    const challenge = params.code_challenge;
    const method = params.code_challenge_method;
    if (method !== undefined && method !== 'S256')
      throw new OAuthError('invalid_request', 'Only code_challenge_method=S256 is supported.');
    if (challenge === undefined) {
      if (client.type === 'public')
        throw new OAuthError(
          'invalid_request',
          'PKCE is mandatory for public clients: send code_challenge with code_challenge_method=S256.',
        );
      if (method !== undefined)
        throw new OAuthError('invalid_request', 'code_challenge_method sent without code_challenge.');
    } else {
      // Without a method RFC 7636 means "plain", which this server refuses.
      if (method === undefined)
        throw new OAuthError('invalid_request', 'code_challenge_method=S256 is required (plain is not supported).');
      if (!S256_CHALLENGE.test(challenge))
        throw new OAuthError(
          'invalid_request',
          'code_challenge must be the 43-character base64url SHA-256 of the verifier.',
        );
    }
    const { person, tenants } = signInTestPerson(client, params.login_hint, deps.state.fixtures.persons);
    if (req.method === 'GET' && params.prompt === 'consent') {
      return consentPage({ client, person, tenants, scopes, params, action: OAUTH_PATHS.authorize, requestId });
    }
    if (req.method === 'POST' && params.consent !== 'allow') {
      if (params.consent === 'deny') throw new OAuthError('access_denied', `${person.name} declined the request.`);
      throw new OAuthError('invalid_request', 'The consent decision is missing (consent=allow or consent=deny).');
    }
    const code = await deps.codes.issue({
      clientId: client.id,
      redirectUri,
      redirectUriSent: params.redirect_uri !== undefined,
      personId: person.id,
      tenants,
      scopes,
      ...(challenge !== undefined ? { codeChallenge: challenge } : {}),
    });
    return answer({ code });
  } catch (err) {
    if (!(err instanceof OAuthError)) throw err;
    return answer({ error: err.code, error_description: errorDescription(err.message) });
  }
}
