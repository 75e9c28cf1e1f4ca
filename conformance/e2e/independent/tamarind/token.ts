// The realm's OpenID Connect endpoints: discovery metadata, the JWKS and the token endpoint. Keycloak
// answers token errors in RFC 6749 form ({error, error_description}), not in the API's envelope.
import { createPublicKey } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { REALM_PATH, type Realm, TOKEN_PATH } from './auth.ts';

function oauthJson(res: ServerResponse, status: number, body: unknown, extra: Record<string, string> = {}): void {
  res.writeHead(status, {
    'content-type': 'application/json',
    'cache-control': 'no-store',
    pragma: 'no-cache',
    ...extra,
  });
  res.end(JSON.stringify(body));
}

async function readForm(req: IncomingMessage): Promise<URLSearchParams> {
  const chunks: Buffer[] = [];
  for await (const c of req) chunks.push(c as Buffer);
  return new URLSearchParams(Buffer.concat(chunks).toString('utf8'));
}

/** Answers the realm's paths; returns false when the path is not the realm's. */
export async function handleRealm(
  realm: Realm,
  req: IncomingMessage,
  res: ServerResponse,
  path: string,
  origin: string,
): Promise<boolean> {
  if (!path.startsWith(REALM_PATH)) return false;
  if (path === `${REALM_PATH}/.well-known/openid-configuration` && req.method === 'GET') {
    oauthJson(res, 200, {
      issuer: realm.issuer,
      token_endpoint: `${origin}${TOKEN_PATH}`,
      jwks_uri: `${origin}${REALM_PATH}/protocol/openid-connect/certs`,
      grant_types_supported: ['client_credentials'],
      token_endpoint_auth_methods_supported: ['client_secret_basic', 'client_secret_post'],
      id_token_signing_alg_values_supported: ['RS256'],
    });
    return true;
  }
  if (path === `${REALM_PATH}/protocol/openid-connect/certs` && req.method === 'GET') {
    const jwk = createPublicKey(realm.keys.publicKey).export({ format: 'jwk' });
    oauthJson(res, 200, { keys: [{ ...jwk, kid: realm.kid, use: 'sig', alg: 'RS256' }] });
    return true;
  }
  if (path === TOKEN_PATH) {
    if (req.method !== 'POST') {
      oauthJson(res, 405, { error: 'invalid_request', error_description: 'HTTP method not allowed' });
      return true;
    }
    const form = await readForm(req);
    if (!realm.authenticate(req, form)) {
      oauthJson(
        res,
        401,
        { error: 'invalid_client', error_description: 'Invalid client or Invalid client credentials' },
        { 'www-authenticate': 'Basic realm="ncs-sandbox"' },
      );
      return true;
    }
    if (form.get('grant_type') !== 'client_credentials') {
      oauthJson(res, 400, { error: 'unsupported_grant_type', error_description: 'Unsupported grant_type' });
      return true;
    }
    // Keycloak echoes the client's default scopes; optional scopes asked for are added when assigned.
    const asked = (form.get('scope') ?? '').split(' ').filter((s) => s === 'ncs.read' || s === 'ncs.write');
    const scope = ['profile', 'email', 'ncs.read', 'ncs.write', ...asked].filter((s, i, a) => a.indexOf(s) === i);
    oauthJson(res, 200, realm.issue(scope.join(' ')));
    return true;
  }
  oauthJson(res, 404, { error: 'Unable to find matching target resource method' });
  return true;
}
