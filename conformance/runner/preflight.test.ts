import { describe, expect, it } from 'vitest';
import type { Exchange, KitClient, SendRequest } from '../client/http-client.ts';
import { createRedactor } from '../client/redact.ts';
import { resolveOptions } from './options.ts';
import { obtainToken } from './preflight.ts';

const METADATA = 'http://127.0.0.1:9/.well-known/oauth-authorization-server';
const TOKEN = 'http://127.0.0.1:9/as/token';

/** An authorization server whose metadata lists `methods`, and whose token endpoint takes only `accepts`. */
function authorizationServer(methods: string[] | undefined, accepts: 'basic' | 'post', expiresIn?: number) {
  const tried: string[] = [];
  let issued = 0;
  const answer = (req: SendRequest, status: number, json: unknown): Exchange => ({
    method: req.method,
    url: req.url,
    requestHeaders: {},
    status,
    headers: {},
    text: JSON.stringify(json),
    json,
    durationMs: 1,
    attempts: 1,
  });
  const client: KitClient = {
    async send(req) {
      if (req.url === METADATA)
        return answer(req, 200, {
          token_endpoint: TOKEN,
          ...(methods ? { token_endpoint_auth_methods_supported: methods } : {}),
        });
      if (req.url !== TOKEN) return answer(req, 404, {});
      const basic = Boolean(req.headers?.authorization);
      tried.push(basic ? 'basic' : 'post');
      return (basic ? 'basic' : 'post') === accepts
        ? answer(req, 200, {
            access_token: `access-token-${++issued}`,
            token_type: 'Bearer',
            ...(expiresIn !== undefined ? { expires_in: expiresIn } : {}),
          })
        : answer(req, 401, { error: 'invalid_client' });
    },
    openStream: () => Promise.reject(new Error('not used')),
  };
  return { client, tried };
}

const options = resolveOptions({
  baseUrl: 'http://127.0.0.1:9',
  tenant: 't',
  clientId: 'svc',
  clientSecret: 'secret value+1',
});

describe('the run token by client credentials at a discovered token endpoint', () => {
  it('authenticates the way the metadata lists (client_secret_post only) and says so', async () => {
    const { client, tried } = authorizationServer(['client_secret_post'], 'post');
    const notices: string[] = [];
    expect((await obtainToken(client, options, createRedactor(), undefined, notices)).token).toBe('access-token-1');
    expect(tried).toEqual(['post']);
    expect(notices.join('\n')).toMatch(/client authentication client_secret_post \(it lists client_secret_post\)/);
  });

  it('tries the next listed method after a refusal, and keeps client_secret_basic without a list', async () => {
    const both = authorizationServer(['client_secret_basic', 'client_secret_post'], 'post');
    const notices: string[] = [];
    expect((await obtainToken(both.client, options, createRedactor(), undefined, notices)).token).toBe(
      'access-token-1',
    );
    expect(both.tried).toEqual(['basic', 'post']);
    expect(notices.at(-1)).toMatch(/client_secret_basic was refused; client_secret_post got the token/);
    const unlisted = authorizationServer(undefined, 'basic');
    expect((await obtainToken(unlisted.client, options, createRedactor(), undefined, [])).token).toBe('access-token-1');
    expect(unlisted.tried).toEqual(['basic']);
    // A declared token endpoint (no metadata read): client_secret_basic, then client_secret_post.
    const declared = authorizationServer(undefined, 'post');
    const tokenUrl = resolveOptions({
      baseUrl: 'http://127.0.0.1:9',
      tenant: 't',
      clientId: 'svc',
      clientSecret: 's',
      tokenUrl: TOKEN,
    });
    expect((await obtainToken(declared.client, tokenUrl, createRedactor(), undefined, [])).token).toBe(
      'access-token-1',
    );
    expect(declared.tried).toEqual(['basic', 'post']);
  });

  it('renews a token that ran out at the same endpoint with the method that worked, redacting the new one', async () => {
    const server = authorizationServer(['client_secret_basic', 'client_secret_post'], 'post', 0);
    const redactor = createRedactor();
    const notices: string[] = [];
    const { token, keeper } = await obtainToken(server.client, options, redactor, undefined, notices);
    expect(token).toBe('access-token-1');
    expect(await keeper?.fresh()).toBe('access-token-2');
    expect(server.tried).toEqual(['basic', 'post', 'post']);
    expect(redactor.text('sent access-token-2')).not.toContain('access-token-2');
    expect(notices.at(-1)).toMatch(/ran out during the run; the kit got a new one/);
  });

  it('keeps a given token as it is (nothing to renew it with)', async () => {
    const given = resolveOptions({ baseUrl: 'http://127.0.0.1:9', tenant: 't', token: 'tok' });
    const { client } = authorizationServer(undefined, 'basic');
    expect(await obtainToken(client, given, createRedactor(), undefined, [])).toEqual({ token: 'tok' });
  });
});
