import { describe, expect, it } from 'vitest';
import { registerCreatedSecrets } from './created-secrets.ts';
import type { Exchange, KitClient, SendRequest } from './http-client.ts';
import { discoverTokenEndpoint } from './oauth-metadata.ts';
import { createRedactor } from './redact.ts';

/** A client that answers from a table of URL -> JSON (404 otherwise) and notes what was asked. */
function fakeClient(answers: Record<string, unknown>) {
  const asked: string[] = [];
  const client: KitClient = {
    async send(req: SendRequest): Promise<Exchange> {
      asked.push(req.url);
      const json = answers[req.url];
      return {
        method: req.method,
        url: req.url,
        requestHeaders: {},
        status: json === undefined ? 404 : 200,
        headers: {},
        text: json === undefined ? '' : JSON.stringify(json),
        json,
        durationMs: 1,
        attempts: 1,
      };
    },
    openStream: () => Promise.reject(new Error('not used')),
  };
  return { client, asked };
}

describe('token endpoint discovery', () => {
  it('reads RFC 8414 metadata, trying the path-inserted address before the origin', async () => {
    const { client, asked } = fakeClient({
      'https://api.example/.well-known/oauth-authorization-server': { token_endpoint: 'https://auth.example/t' },
    });
    const found = await discoverTokenEndpoint(client, 'https://api.example/tenant-a');
    expect(found).toEqual({
      tokenUrl: 'https://auth.example/t',
      source: 'RFC 8414 metadata at https://api.example/.well-known/oauth-authorization-server',
      assumed: false,
    });
    expect(asked).toEqual([
      'https://api.example/.well-known/oauth-authorization-server/tenant-a',
      'https://api.example/.well-known/oauth-authorization-server',
    ]);
  });

  it('does not use metadata whose issuer is another origin (RFC 8414 §3.3), saying why', async () => {
    const { client } = fakeClient({
      'https://api.example/.well-known/oauth-authorization-server': {
        issuer: 'http://127.0.0.1:9',
        token_endpoint: 'http://127.0.0.1:9/token',
      },
    });
    const found = await discoverTokenEndpoint(client, 'https://api.example');
    expect(found.tokenUrl).toBe('https://api.example/oauth/token');
    expect(found.assumed).toBe(true);
    expect(found.source).toMatch(/issuer http:\/\/127\.0\.0\.1:9 is not .*RFC 8414 §3\.3/);
  });

  it('uses matching metadata whose token endpoint is on another origin (the authorization server lives elsewhere)', async () => {
    const { client } = fakeClient({
      'https://api.example/.well-known/oauth-authorization-server/t': {
        issuer: 'https://api.example/t/',
        token_endpoint: 'https://auth.example/token',
      },
    });
    const found = await discoverTokenEndpoint(client, 'https://api.example/t');
    expect(found.tokenUrl).toBe('https://auth.example/token');
  });

  it('returns the client authentication methods the metadata lists (token_endpoint_auth_methods_supported)', async () => {
    const { client } = fakeClient({
      'https://api.example/.well-known/oauth-authorization-server': {
        token_endpoint: 'https://auth.example/t',
        token_endpoint_auth_methods_supported: ['client_secret_post', 'private_key_jwt', 7],
      },
    });
    const found = await discoverTokenEndpoint(client, 'https://api.example');
    expect(found.authMethods).toEqual(['client_secret_post', 'private_key_jwt']);
  });

  it('falls back to the self-description, then to the simulator path, saying it assumed', async () => {
    const { client } = fakeClient({});
    const named = await discoverTokenEndpoint(client, 'https://api.example', {
      data: { authentication: { tokenEndpoint: '/oauth2/token' } },
    });
    expect(named.tokenUrl).toBe('https://api.example/oauth2/token');
    const assumed = await discoverTokenEndpoint(client, 'https://api.example');
    expect([assumed.tokenUrl, assumed.assumed]).toEqual(['https://api.example/oauth/token', true]);
  });

  it("reads the token URL of the OpenAPI document's OAuth2 client credentials flow, and a self-description's token_url", async () => {
    const { client } = fakeClient({
      'https://api.example/api/public/v1/openapi.json': {
        components: {
          securitySchemes: {
            bearer: { type: 'http', scheme: 'bearer' },
            oauth: {
              type: 'oauth2',
              flows: { clientCredentials: { tokenUrl: '/api/public/v1/auth/token', scopes: {} } },
            },
          },
        },
      },
    });
    const documented = await discoverTokenEndpoint(client, 'https://api.example');
    expect([documented.tokenUrl, documented.assumed]).toEqual(['https://api.example/api/public/v1/auth/token', false]);
    expect(documented.source).toMatch(/securitySchemes\.oauth\.flows\.clientCredentials\.tokenUrl/);
    const snake = await discoverTokenEndpoint(fakeClient({}).client, 'https://api.example', {
      data: { authentication: { token_url: 'https://auth.example/token' } },
    });
    expect(snake.tokenUrl).toBe('https://auth.example/token');
  });

  it('registers secrets an answer hands out for redaction, not for leak checks', () => {
    const r = createRedactor();
    registerCreatedSecrets(
      { data: { id: 'wh_1', signingSecret: 'whsec_0123456789', nested: { access_token: 'at_abcdefgh' } } },
      r,
    );
    expect(r.text('key whsec_0123456789 and at_abcdefgh')).toBe('key $NCS_SIGNING_SECRET and $NCS_ACCESS_TOKEN');
    expect(r.secrets()).toEqual([]);
    // A deployment naming the key as the interface does ("signing key"), nested: redacted too.
    registerCreatedSecrets({ data: { credentials: { signingKey: 'whsec_nested012345' } } }, r);
    expect(r.text('whsec_nested012345')).toBe('$NCS_SIGNING_KEY');
    r.add('at_abcdefgh', 'NCS_TOKEN');
    expect(r.secrets()).toEqual([{ value: 'at_abcdefgh', env: 'NCS_TOKEN' }]);
  });
});
