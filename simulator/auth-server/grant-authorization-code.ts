import type { ClientRecord } from '../services/client-service.ts';
import { tokenBody, type AuthServerDeps } from './deps.ts';
import { OAuthError } from './oauth-error.ts';
import type { OAuthParams } from './params.ts';
import { CODE_VERIFIER, verifyS256 } from './pkce.ts';

/**
 * authorization_code (RFC 6749 4.1.3, OAuth 2.1 4.1.3): exchanges a code for an access token acting
 * for the signed-in person plus a refresh token that starts a new family. The code is single-use:
 * every attempt by its client spends it, and a code that comes back revokes what it produced.
 * @example await authorizationCodeGrant(client, { code, redirect_uri, code_verifier }, deps);
 */
export async function authorizationCodeGrant(client: ClientRecord, params: OAuthParams, deps: AuthServerDeps) {
  if (client.type === 'service-account') {
    throw new OAuthError('unauthorized_client', 'A service account acts for no person: use client_credentials.');
  }
  if (params.code === undefined) throw new OAuthError('invalid_request', 'The parameter code is missing.');
  const found = await deps.codes.find(params.code);
  if (found.kind === 'unknown') throw new OAuthError('invalid_grant', 'The authorization code is not recognised.');
  if (found.kind === 'expired')
    throw new OAuthError(
      'invalid_grant',
      'The authorization code has expired: codes live 60 seconds; start the sign-in again.',
    );
  const code = found.code;
  // Bound to its client: another client's attempt neither spends the code nor revokes anything.
  if (code.clientId !== client.id)
    throw new OAuthError('invalid_grant', 'The authorization code was issued to another client.');
  if (found.kind === 'redeemed') {
    // The family and every access token issued under it.
    if (code.grant) await deps.families.revokeFamily(code.grant);
    throw new OAuthError(
      'invalid_grant',
      'The authorization code was already used; the tokens issued for it are revoked. Start the sign-in again.',
    );
  }
  await deps.codes.redeem(params.code);

  const redirect = params.redirect_uri;
  if (redirect === undefined && code.redirectUriSent) {
    throw new OAuthError(
      'invalid_request',
      'The parameter redirect_uri is missing: repeat the one sent to the authorize endpoint.',
    );
  }
  if (redirect !== undefined && redirect !== code.redirectUri) {
    throw new OAuthError('invalid_grant', 'redirect_uri differs from the one of the authorization request.');
  }
  const verifier = params.code_verifier;
  if (code.codeChallenge === undefined) {
    if (verifier !== undefined)
      throw new OAuthError(
        'invalid_grant',
        'code_verifier sent, but the authorization request carried no code_challenge.',
      );
  } else {
    if (verifier === undefined)
      throw new OAuthError('invalid_grant', 'code_verifier is missing: the authorization request used PKCE.');
    if (!CODE_VERIFIER.test(verifier))
      throw new OAuthError(
        'invalid_request',
        'code_verifier must be 43 to 128 characters of A-Z a-z 0-9 - . _ ~ (RFC 7636 4.1).',
      );
    if (!verifyS256(verifier, code.codeChallenge))
      throw new OAuthError('invalid_grant', 'code_verifier does not match the code_challenge (S256).');
  }

  const grant = {
    clientId: client.id,
    personId: code.personId,
    tenants: code.tenants,
    scopes: code.scopes,
    environment: client.environment,
  };
  const { family, refreshToken } = await deps.families.start(grant);
  await deps.codes.redeem(params.code, family);
  return tokenBody(await deps.state.tokens.issue({ ...grant, family }), refreshToken);
}
