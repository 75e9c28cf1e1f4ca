import { BASE_PATH } from '../../simulator/contract/versions.ts';
import type { KitClient } from '../client/http-client.ts';
import { discoverTokenEndpoint } from '../client/oauth-metadata.ts';
import type { Redactor } from '../client/redact.ts';
import { basicCredentials, requestClientCredentialsToken } from '../client/token.ts';
import type { ResolvedOptions } from './options.ts';

/**
 * The run's bearer token: the one given, or one from the client credentials grant at the token
 * endpoint given, declared or discovered (which one is said in `notices`).
 * @example const token = await obtainToken(client, resolved, redactor, selfDescription.json, notices);
 */
export async function obtainToken(
  client: KitClient,
  o: ResolvedOptions,
  redactor: Redactor,
  selfDescription: unknown,
  notices: string[],
): Promise<string | undefined> {
  const c = o.credentials;
  if (c.kind === 'none') return undefined;
  if (c.kind === 'token') return c.token;
  redactor.add(c.clientSecret, 'NCS_CLIENT_SECRET');
  redactor.add(basicCredentials(c.clientId, c.clientSecret), 'NCS_BASIC_CREDENTIALS');
  let tokenUrl = c.tokenUrl;
  if (!tokenUrl) {
    const found = await discoverTokenEndpoint(client, o.baseUrl, selfDescription);
    tokenUrl = found.tokenUrl;
    notices.push(`token endpoint ${found.tokenUrl}: ${found.source}`);
  }
  return (await requestClientCredentialsToken(client, { ...c, tokenUrl })).accessToken;
}

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
