import { describe } from 'vitest';
import type { Target } from '../harness.ts';
import { oauthAuthorizationCodeBehaviour } from './oauth-authorization-code.ts';
import { oauthClientCredentialsBehaviour } from './oauth-client-credentials.ts';
import { oauthCodeSafeguardsBehaviour } from './oauth-code-safeguards.ts';
import { oauthConsentBehaviour } from './oauth-consent.ts';
import { oauthMetadataBehaviour } from './oauth-metadata.ts';
import { oauthRevocationBehaviour } from './oauth-revocation.ts';
import { oauthTokenErrorsBehaviour } from './oauth-token-errors.ts';

/** Registers the authorization server's behaviour, one file per concern, under one describe. */
export function oauthBehaviour(get: () => Target) {
  describe('OAuth authorization server', () => {
    oauthMetadataBehaviour(get);
    oauthClientCredentialsBehaviour(get);
    oauthTokenErrorsBehaviour(get);
    oauthAuthorizationCodeBehaviour(get);
    oauthCodeSafeguardsBehaviour(get);
    oauthConsentBehaviour(get);
    oauthRevocationBehaviour(get);
  });
}
