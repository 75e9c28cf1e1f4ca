import { BASE_PATH } from '../../simulator/contract/versions.ts';
import type { KitClient } from '../client/http-client.ts';
import { discoverTokenEndpoint } from '../client/oauth-metadata.ts';
import type { Redactor } from '../client/redact.ts';
import {
  authMethodsToTry,
  basicCredentials,
  formEncodedSecret,
  requestClientCredentialsToken,
  TokenError,
} from '../client/token.ts';
import { type IssuedToken, type TokenKeeper, tokenKeeper } from '../client/token-keeper.ts';
import type { ResolvedOptions } from './options.ts';

/**
 * The run's bearer token: the one given, or one from the client credentials grant at the token
 * endpoint given, declared or discovered (which one is said in `notices`); a granted token comes with
 * its keeper, which renews it at the same endpoint with the same client authentication.
 * @example const { token, keeper } = await obtainToken(client, resolved, redactor, selfDescription.json, notices);
 */
export async function obtainToken(
  client: KitClient,
  o: ResolvedOptions,
  redactor: Redactor,
  selfDescription: unknown,
  notices: string[],
): Promise<{ token?: string; keeper?: TokenKeeper }> {
  const c = o.credentials;
  if (c.kind === 'none') return {};
  if (c.kind === 'token') return { token: c.token };
  redactor.add(c.clientSecret, 'NCS_CLIENT_SECRET');
  redactor.add(basicCredentials(c.clientId, c.clientSecret), 'NCS_BASIC_CREDENTIALS');
  redactor.add(formEncodedSecret(c.clientSecret), 'NCS_CLIENT_SECRET');
  let tokenUrl = c.tokenUrl;
  let methods = authMethodsToTry(undefined);
  if (!tokenUrl) {
    const found = await discoverTokenEndpoint(client, o.baseUrl, selfDescription);
    tokenUrl = found.tokenUrl;
    methods = authMethodsToTry(found.authMethods);
    const listed = found.authMethods ? ` (it lists ${found.authMethods.join(', ') || 'no method'})` : '';
    notices.push(`token endpoint ${found.tokenUrl}: ${found.source}; client authentication ${methods[0]}${listed}`);
  }
  // The methods the metadata lists, in the kit's order: a refusal of one (400/401) tries the next.
  for (const [i, authMethod] of methods.entries()) {
    try {
      const grant = () => requestClientCredentialsToken(client, { ...c, tokenUrl, authMethod });
      const asked = Date.now();
      const first: IssuedToken = { ...(await grant()), requestedAt: asked };
      if (i > 0) notices.push(`client authentication ${methods[0]} was refused; ${authMethod} got the token`);
      const keeper = tokenKeeper(first, grant, (t, deliberate) => {
        redactor.add(t, 'NCS_TOKEN');
        // A renewal a check asks for (a repeat under a renewed token) is no news about the token's lifetime.
        if (!deliberate) notices.push(renewedNotice);
      });
      return { token: first.accessToken, keeper };
    } catch (err) {
      const refused = err instanceof TokenError && (err.status === 400 || err.status === 401);
      if (!refused || i === methods.length - 1) throw err;
    }
  }
  throw new TokenError(`no client authentication method to try at ${tokenUrl}`);
}

// Said once however often the token is renewed (run.ts says a repeated notice once, with its count).
const renewedNotice =
  'the token from the client credentials ran out during the run; the kit got a new one at the token endpoint (the interface: tokens are short-lived and renewed)';

/**
 * The kit's first authenticated call (GET /info, the interface's sample first call): whether the
 * deployment refuses the credentials (401 with a tenant given, so the other reading of a missing tenant
 * cannot be meant), and the environment it reports for the token, if any.
 */
export async function firstAuthenticatedCall(
  client: KitClient,
  o: ResolvedOptions,
  token: string,
): Promise<{ refused: boolean; environment?: string }> {
  const ex = await client.send({
    method: 'GET',
    url: `${o.baseUrl}${BASE_PATH}/info`,
    headers: { authorization: `Bearer ${token}`, 'x-service-tenant': o.tenant ?? '' },
  });
  const env = (ex.json as { data?: { environment?: unknown } } | undefined)?.data?.environment;
  return {
    refused: ex.status === 401 && o.tenant !== undefined,
    ...(ex.status === 200 && typeof env === 'string' ? { environment: env } : {}),
  };
}

/** Why the run stops when the first authenticated call is answered 401. */
export function credentialsRefused(o: ResolvedOptions): string {
  const how =
    o.credentials.kind === 'client-credentials'
      ? 'the token from the client credentials'
      : 'the token (--token / NCS_TOKEN; it may have expired)';
  return `credentials refused: ${o.baseUrl}${BASE_PATH}/info answered 401 to ${how} for tenant ${o.tenant}; no check ran`;
}
