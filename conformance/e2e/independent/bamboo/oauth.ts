// An Ory Hydra stand-in on its own port: POST /oauth2/token (client credentials, client_secret_basic or
// client_secret_post), discovery at /.well-known/openid-configuration (and the RFC 8414 twin). Tokens are
// opaque `ory_at_…` strings, 300 s (short-lived; renewed, never extended). Errors are RFC 6749 JSON.
import { randomBytes, timingSafeEqual } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { State } from './state.ts';

function same(a: string, b: string): boolean {
  const x = Buffer.from(a);
  const y = Buffer.from(b);
  return x.length === y.length && timingSafeEqual(x, y);
}

function send(
  res: import('node:http').ServerResponse,
  status: number,
  body: unknown,
  extra: Record<string, string> = {},
) {
  res.writeHead(status, {
    'content-type': 'application/json',
    'cache-control': 'no-store',
    pragma: 'no-cache',
    ...extra,
  });
  res.end(JSON.stringify(body));
}

/** Starts the authorization server; resolves to its origin. */
export async function startHydra(state: State): Promise<{ server: Server; origin: string }> {
  let origin = '';
  const server = createServer(async (req, res) => {
    const url = new URL(req.url ?? '/', origin);
    if (
      req.method === 'GET' &&
      (url.pathname === '/.well-known/openid-configuration' ||
        url.pathname === '/.well-known/oauth-authorization-server')
    ) {
      send(res, 200, {
        issuer: `${origin}/`,
        token_endpoint: `${origin}/oauth2/token`,
        authorization_endpoint: `${origin}/oauth2/auth`,
        jwks_uri: `${origin}/.well-known/jwks.json`,
        grant_types_supported: ['client_credentials', 'authorization_code', 'refresh_token'],
        response_types_supported: ['code'],
        token_endpoint_auth_methods_supported:
          state.options.tokenAuthMethod === 'both'
            ? ['client_secret_basic', 'client_secret_post']
            : [state.options.tokenAuthMethod],
        code_challenge_methods_supported: ['S256'],
        scopes_supported: ['ncs.read', 'ncs.write'],
      });
      return;
    }
    if (url.pathname !== '/oauth2/token')
      return send(res, 404, { error: 'not_found', error_description: 'Unknown path.' });
    if (req.method !== 'POST')
      return send(res, 405, { error: 'invalid_request', error_description: 'Use POST.' }, { allow: 'POST' });
    const chunks: Buffer[] = [];
    for await (const c of req) chunks.push(c as Buffer);
    const form = new URLSearchParams(Buffer.concat(chunks).toString('utf8'));
    let id = form.get('client_id') ?? '';
    let secret = form.get('client_secret') ?? '';
    const basic = /^Basic\s+(.+)$/i.exec(req.headers.authorization ?? '');
    const method = state.options.tokenAuthMethod;
    // A client registered for one method is refused with the other one, as Hydra does.
    if ((basic && method === 'client_secret_post') || (!basic && method === 'client_secret_basic')) {
      return send(res, 401, {
        error: 'invalid_client',
        error_description: `This client authenticates with ${method}.`,
      });
    }
    if (basic?.[1]) {
      const decoded = Buffer.from(basic[1], 'base64').toString('utf8');
      const at = decoded.indexOf(':');
      id = decodeURIComponent(decoded.slice(0, at));
      secret = decodeURIComponent(decoded.slice(at + 1));
    }
    const client = state.clients.get(id);
    if (!client || !same(client.secret, secret)) {
      return send(
        res,
        401,
        { error: 'invalid_client', error_description: 'Client authentication failed.' },
        { 'www-authenticate': 'Basic realm="hydra"' },
      );
    }
    if (form.get('grant_type') !== 'client_credentials') {
      return send(res, 400, {
        error: 'unsupported_grant_type',
        error_description: 'Only client_credentials is enabled for this client.',
      });
    }
    const token = `ory_at_${randomBytes(32).toString('base64url')}`;
    state.tokens.set(token, { clientId: id, expiresAt: Date.now() + state.options.tokenTtlSeconds * 1000 });
    send(res, 200, {
      access_token: token,
      token_type: 'bearer',
      expires_in: state.options.tokenTtlSeconds,
      scope: form.get('scope') ?? 'ncs.read ncs.write',
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return { server, origin };
}
