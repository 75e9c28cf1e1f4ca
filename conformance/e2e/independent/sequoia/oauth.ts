// The http4k-security style authorization server: client credentials only, opaque `private`-looking tokens
// held in memory (no JWT: the resource server looks them up), RFC 8414 metadata for discovery.
import { randomBytes, timingSafeEqual } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { header } from './http-kit.ts';

export interface Access {
  clientId: string;
  tenants: string[];
  expiresAt: number;
}

export interface OAuthServer {
  clientId: string;
  clientSecret: string;
  tokenPath: string;
  handleToken(req: IncomingMessage, res: ServerResponse): Promise<void>;
  handleMetadata(res: ServerResponse, origin: string): void;
  /** The access behind a bearer token, or undefined (missing, unknown, expired). */
  lookup(authorization: string | undefined): Access | undefined;
}

export const TOKEN_PATH = '/oauth/v1/token';

export function createOAuthServer(tenants: string[], tokenTtlSeconds: number): OAuthServer {
  const clientId = 'sequoia-ci';
  const clientSecret = `sq_cs_${randomBytes(24).toString('hex')}`;
  const tokens = new Map<string, Access>();

  const same = (a: string, b: string) => {
    const x = Buffer.from(a);
    const y = Buffer.from(b);
    return x.length === y.length && timingSafeEqual(x, y);
  };

  const refuse = (res: ServerResponse, status: number, error: string, description: string) => {
    res.writeHead(status, { 'content-type': 'application/json', 'cache-control': 'no-store' });
    res.end(JSON.stringify({ error, error_description: description }));
  };

  return {
    clientId,
    clientSecret,
    tokenPath: TOKEN_PATH,
    async handleToken(req, res) {
      if (req.method !== 'POST') return refuse(res, 405, 'invalid_request', 'POST only');
      let raw = '';
      for await (const c of req) raw += c;
      const form = new URLSearchParams(raw);
      let id = form.get('client_id') ?? '';
      let secret = form.get('client_secret') ?? '';
      const basic = header(req, 'authorization');
      if (basic?.startsWith('Basic ')) {
        const decoded = Buffer.from(basic.slice(6), 'base64').toString('utf8');
        const i = decoded.indexOf(':');
        id = decodeURIComponent(decoded.slice(0, i));
        secret = decodeURIComponent(decoded.slice(i + 1));
      }
      if (form.get('grant_type') !== 'client_credentials') {
        return refuse(res, 400, 'unsupported_grant_type', 'only client_credentials is offered');
      }
      if (!same(id, clientId) || !same(secret, clientSecret)) {
        return refuse(res, 401, 'invalid_client', 'client authentication failed');
      }
      const token = `private.${randomBytes(32).toString('base64url')}`;
      tokens.set(token, { clientId, tenants, expiresAt: Date.now() + tokenTtlSeconds * 1000 });
      res.writeHead(200, { 'content-type': 'application/json', 'cache-control': 'no-store' });
      res.end(
        JSON.stringify({
          access_token: token,
          token_type: 'Bearer',
          expires_in: tokenTtlSeconds,
          scope: 'connections:write catalog:read',
        }),
      );
    },
    handleMetadata(res, origin) {
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(
        JSON.stringify({
          issuer: origin,
          token_endpoint: `${origin}${TOKEN_PATH}`,
          grant_types_supported: ['client_credentials'],
          token_endpoint_auth_methods_supported: ['client_secret_basic', 'client_secret_post'],
        }),
      );
    },
    lookup(authorization) {
      const m = /^Bearer\s+(\S+)$/i.exec(authorization ?? '');
      if (!m) return undefined;
      const access = tokens.get(m[1] ?? '');
      if (!access) return undefined;
      if (access.expiresAt < Date.now()) {
        tokens.delete(m[1] ?? '');
        return undefined;
      }
      return access;
    },
  };
}
