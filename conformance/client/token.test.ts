import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createKitClient } from './http-client.ts';
import { authMethodsToTry, basicCredentials, requestClientCredentialsToken, TokenError } from './token.ts';

// A minimal authorization server on loopback that speaks client_secret_basic.
const seen: { auth?: string; type?: string; body: string }[] = [];
const server = createServer((req, res) => {
  let body = '';
  req
    .on('data', (c) => (body += c))
    .on('end', () => {
      seen.push({ auth: req.headers.authorization, type: req.headers['content-type'], body });
      const form0 = new URLSearchParams(body);
      // At /post-only: an authorization server that takes client_secret_post only (Basic refused).
      if (req.url === '/post-only') {
        res.setHeader('content-type', 'application/json');
        if (
          req.headers.authorization ||
          form0.get('client_id') !== 'svc id' ||
          form0.get('client_secret') !== 's3cret:with+chars'
        )
          return res.writeHead(401).end('{"error":"invalid_client"}');
        return res.end(JSON.stringify({ access_token: 'at-post', token_type: 'bearer' }));
      }
      const [id, secret] = Buffer.from((req.headers.authorization ?? '').replace(/^Basic /, ''), 'base64')
        .toString()
        .split(':')
        .map((s) => decodeURIComponent(s.replace(/\+/g, ' ')));
      const form = new URLSearchParams(body);
      res.setHeader('content-type', 'application/json');
      if (form.get('grant_type') !== 'client_credentials')
        return res.writeHead(400).end('{"error":"unsupported_grant_type"}');
      if (id !== 'svc id' || secret !== 's3cret:with+chars')
        return res.writeHead(401).end('{"error":"invalid_client"}');
      res.end(
        JSON.stringify({
          access_token: 'at-123456',
          token_type: 'Bearer',
          expires_in: 900,
          scope: form.get('scope') ?? 'catalog:read',
        }),
      );
    });
});
let tokenUrl = '';
beforeAll(async () => {
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  tokenUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}/oauth/token`;
});
afterAll(() => new Promise((resolve) => server.close(resolve)));

describe('client credentials token (client_secret_basic)', () => {
  const client = createKitClient();

  it('posts the form with Basic credentials and returns the access token', async () => {
    const got = await requestClientCredentialsToken(client, {
      tokenUrl,
      clientId: 'svc id',
      clientSecret: 's3cret:with+chars',
      scope: 'catalog:read connections:read',
    });
    expect(got).toEqual({ accessToken: 'at-123456', expiresIn: 900, scope: 'catalog:read connections:read' });
    const last = seen.at(-1)!;
    expect(last.type).toBe('application/x-www-form-urlencoded');
    expect(last.body).toBe('grant_type=client_credentials&scope=catalog%3Aread+connections%3Aread');
    expect(last.auth).toBe(`Basic ${basicCredentials('svc id', 's3cret:with+chars')}`);
    expect(Buffer.from(basicCredentials('svc id', 's3cret:with+chars'), 'base64').toString()).toBe(
      'svc+id:s3cret%3Awith%2Bchars',
    );
  });

  it('explains a refusal without echoing the secret', async () => {
    const err = await requestClientCredentialsToken(client, {
      tokenUrl,
      clientId: 'svc id',
      clientSecret: 'wrong-secret-value',
    }).catch((e) => e);
    expect(err).toBeInstanceOf(TokenError);
    expect(err.message).toMatch(/answered 401 \(invalid_client\)/);
    expect(err.message).not.toContain('wrong-secret-value');
  });
});

describe('client authentication chosen by the metadata (RFC 8414 token_endpoint_auth_methods_supported)', () => {
  const client = createKitClient();

  it("tries the methods the metadata lists, in the kit's order; without a list, client_secret_basic (the default)", () => {
    expect(authMethodsToTry(undefined)).toEqual(['client_secret_basic', 'client_secret_post']);
    expect(authMethodsToTry(['client_secret_post'])).toEqual(['client_secret_post']);
    expect(authMethodsToTry(['client_secret_post', 'client_secret_basic'])).toEqual([
      'client_secret_basic',
      'client_secret_post',
    ]);
    expect(authMethodsToTry(['private_key_jwt'])).toEqual(['client_secret_basic']);
  });

  it('sends client_secret_post as form fields without an Authorization header, and gets the token', async () => {
    const post = {
      tokenUrl: tokenUrl.replace('/oauth/token', '/post-only'),
      clientId: 'svc id',
      clientSecret: 's3cret:with+chars',
    };
    const refused = await requestClientCredentialsToken(client, post).catch((e) => e);
    expect(refused).toBeInstanceOf(TokenError);
    expect(refused.status).toBe(401);
    expect(refused.message).toMatch(/to client_secret_basic/);
    const got = await requestClientCredentialsToken(client, { ...post, authMethod: 'client_secret_post' });
    expect(got.accessToken).toBe('at-post');
    const last = seen.at(-1);
    expect(last?.auth).toBeUndefined();
    expect(new URLSearchParams(last?.body).get('client_secret')).toBe('s3cret:with+chars');
  });
});
