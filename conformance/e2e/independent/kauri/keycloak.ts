// A Keycloak realm in miniature: client credentials at /realms/kauri/protocol/openid-connect/token, RS256 JWTs,
// a JWKS at .../certs, and the bearer check (signature, issuer, expiry) plus the tenant release of the client.
import { createSign, createVerify, generateKeyPairSync, type KeyObject, randomUUID } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';

export const REALM_PATH = '/realms/kauri/protocol/openid-connect';

export interface RealmClient {
  clientId: string;
  clientSecret: string;
  tenants: string[];
}

const b64u = (b: Buffer | string) => Buffer.from(b).toString('base64url');

export class KeycloakRealm {
  readonly kid = `kauri-rs256-${randomUUID().slice(0, 8)}`;
  private readonly privateKey: KeyObject;
  private readonly publicKey: KeyObject;
  issuer = '';

  private readonly client: RealmClient;
  readonly knownTenants: string[];
  private readonly tokenTtlSeconds: number;
  constructor(client: RealmClient, knownTenants: string[], tokenTtlSeconds: number) {
    this.client = client;
    this.knownTenants = knownTenants;
    this.tokenTtlSeconds = tokenTtlSeconds;
    const pair = generateKeyPairSync('rsa', { modulusLength: 2048 });
    this.privateKey = pair.privateKey;
    this.publicKey = pair.publicKey;
  }

  jwks() {
    const jwk = this.publicKey.export({ format: 'jwk' });
    return { keys: [{ ...jwk, kid: this.kid, use: 'sig', alg: 'RS256' }] };
  }

  private issue(scope: string): string {
    const now = Math.floor(Date.now() / 1000);
    const header = b64u(JSON.stringify({ alg: 'RS256', typ: 'JWT', kid: this.kid }));
    const payload = b64u(
      JSON.stringify({
        iss: this.issuer,
        sub: `service-account-${this.client.clientId}`,
        azp: this.client.clientId,
        aud: 'ncs-public-api',
        iat: now,
        exp: now + this.tokenTtlSeconds,
        jti: randomUUID(),
        scope,
        tenants: this.client.tenants,
      }),
    );
    const sig = createSign('RSA-SHA256').update(`${header}.${payload}`).sign(this.privateKey);
    return `${header}.${payload}.${b64u(sig)}`;
  }

  /** Verifies a bearer token; the client id, or undefined. */
  verify(authorization: string | undefined): { clientId: string; tenants: string[] } | undefined {
    const m = /^bearer\s+(\S+)$/i.exec(authorization ?? '');
    const parts = m?.[1]?.split('.');
    if (parts?.length !== 3) return undefined;
    const [h, p, s] = parts as [string, string, string];
    try {
      const header = JSON.parse(Buffer.from(h, 'base64url').toString()) as { alg?: string; kid?: string };
      if (header.alg !== 'RS256' || header.kid !== this.kid) return undefined;
      const ok = createVerify('RSA-SHA256').update(`${h}.${p}`).verify(this.publicKey, Buffer.from(s, 'base64url'));
      if (!ok) return undefined;
      const claims = JSON.parse(Buffer.from(p, 'base64url').toString()) as {
        iss?: string;
        exp?: number;
        azp?: string;
        tenants?: string[];
      };
      if (claims.iss !== this.issuer || typeof claims.exp !== 'number' || claims.exp * 1000 <= Date.now())
        return undefined;
      if (claims.azp !== this.client.clientId) return undefined;
      return { clientId: claims.azp, tenants: claims.tenants ?? [] };
    } catch {
      return undefined;
    }
  }

  /** The token endpoint (form POST), answering with OAuth error bodies as Keycloak does. */
  token(req: IncomingMessage, res: ServerResponse, raw: string): void {
    const reply = (status: number, body: unknown) => {
      res.writeHead(status, { 'content-type': 'application/json', 'cache-control': 'no-store', pragma: 'no-cache' });
      res.end(JSON.stringify(body));
    };
    if (req.method !== 'POST') {
      reply(405, { error: 'invalid_request', error_description: 'HTTP method not allowed' });
      return;
    }
    const form = new URLSearchParams(raw);
    let id = form.get('client_id') ?? undefined;
    let secret = form.get('client_secret') ?? undefined;
    const basic = /^basic\s+(\S+)$/i.exec(req.headers.authorization ?? '');
    if (basic?.[1]) {
      const text = Buffer.from(basic[1], 'base64').toString();
      const i = text.indexOf(':');
      id = decodeURIComponent(text.slice(0, i));
      secret = decodeURIComponent(text.slice(i + 1));
    }
    if (id !== this.client.clientId || secret !== this.client.clientSecret) {
      reply(401, { error: 'invalid_client', error_description: 'Invalid client or Invalid client credentials' });
      return;
    }
    if (form.get('grant_type') !== 'client_credentials') {
      reply(400, { error: 'unsupported_grant_type', error_description: 'Unsupported grant_type' });
      return;
    }
    const scope = form.get('scope') || 'ncs:read ncs:write';
    reply(200, {
      access_token: this.issue(scope),
      expires_in: this.tokenTtlSeconds,
      refresh_expires_in: 0,
      token_type: 'Bearer',
      'not-before-policy': 0,
      scope,
    });
  }
}
