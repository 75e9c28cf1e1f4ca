// The tiny token service: OAuth client credentials, EdDSA (Ed25519) signed JWTs, JWKS published.
import { generateKeyPairSync, type KeyObject, randomUUID, sign, timingSafeEqual, verify } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';

export interface Client {
  id: string;
  secret: string;
  tenants: string[];
}
export interface Claims {
  sub: string;
  tenants: string[];
  exp: number;
  iat: number;
  jti: string;
}

const b64 = (b: Buffer | string) => Buffer.from(b).toString('base64url');

export class TokenService {
  #priv: KeyObject;
  pub: KeyObject;
  kid = `tupelo-${randomUUID().slice(0, 8)}`;
  lifetimeS: number;
  issuer: string;
  clients: Client[];
  constructor(clients: Client[], lifetimeS: number, issuer: string) {
    const pair = generateKeyPairSync('ed25519');
    this.#priv = pair.privateKey;
    this.pub = pair.publicKey;
    this.clients = clients;
    this.lifetimeS = lifetimeS;
    this.issuer = issuer;
  }
  issue(client: Client): { token: string; exp: number } {
    const now = Math.floor(Date.now() / 1000);
    const claims: Claims & { iss: string } = {
      iss: this.issuer,
      sub: client.id,
      tenants: client.tenants,
      iat: now,
      exp: now + this.lifetimeS,
      jti: randomUUID(),
    };
    const head = b64(JSON.stringify({ alg: 'EdDSA', typ: 'JWT', kid: this.kid }));
    const body = b64(JSON.stringify(claims));
    const sig = sign(null, Buffer.from(`${head}.${body}`), this.#priv);
    return { token: `${head}.${body}.${b64(sig)}`, exp: claims.exp };
  }
  /** The claims of a valid, unexpired token, else undefined. */
  check(token: string): Claims | undefined {
    const parts = token.split('.');
    if (parts.length !== 3) return undefined;
    try {
      const head = JSON.parse(Buffer.from(parts[0] ?? '', 'base64url').toString());
      if (head.alg !== 'EdDSA' || head.kid !== this.kid) return undefined;
      const ok = verify(
        null,
        Buffer.from(`${parts[0]}.${parts[1]}`),
        this.pub,
        Buffer.from(parts[2] ?? '', 'base64url'),
      );
      if (!ok) return undefined;
      const claims = JSON.parse(Buffer.from(parts[1] ?? '', 'base64url').toString()) as Claims;
      if (typeof claims.exp !== 'number' || claims.exp <= Date.now() / 1000) return undefined;
      return claims;
    } catch {
      return undefined;
    }
  }
  jwks(): unknown {
    return { keys: [{ ...this.pub.export({ format: 'jwk' }), kid: this.kid, alg: 'EdDSA', use: 'sig' }] };
  }
  #find(id: string, secret: string): Client | undefined {
    const c = this.clients.find((x) => x.id === id);
    if (!c) return undefined;
    const a = Buffer.from(c.secret);
    const b = Buffer.from(secret);
    return a.length === b.length && timingSafeEqual(a, b) ? c : undefined;
  }
  /** POST /token: client_secret_basic or client_secret_post, grant_type=client_credentials. */
  async handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const chunks: Buffer[] = [];
    for await (const c of req) chunks.push(c as Buffer);
    const form = new URLSearchParams(Buffer.concat(chunks).toString('utf8'));
    let id = form.get('client_id') ?? '';
    let secret = form.get('client_secret') ?? '';
    const auth = req.headers.authorization ?? '';
    if (auth.toLowerCase().startsWith('basic ')) {
      const dec = Buffer.from(auth.slice(6), 'base64').toString();
      const i = dec.indexOf(':');
      id = decodeURIComponent(dec.slice(0, i));
      secret = decodeURIComponent(dec.slice(i + 1));
    }
    const reply = (status: number, body: unknown) => {
      res.writeHead(status, { 'content-type': 'application/json', 'cache-control': 'no-store', pragma: 'no-cache' });
      res.end(JSON.stringify(body));
    };
    if (req.method !== 'POST') return reply(405, { error: 'invalid_request', error_description: 'POST only' });
    if (form.get('grant_type') !== 'client_credentials') {
      return reply(400, { error: 'unsupported_grant_type', error_description: 'client_credentials only' });
    }
    const client = this.#find(id, secret);
    if (!client) return reply(401, { error: 'invalid_client', error_description: 'unknown client or wrong secret' });
    const { token } = this.issue(client);
    reply(200, {
      access_token: token,
      token_type: 'Bearer',
      expires_in: this.lifetimeS,
      scope: 'connections webhooks audit',
    });
  }
}
