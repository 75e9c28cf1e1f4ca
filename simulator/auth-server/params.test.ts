import * as oauth from 'oauth4webapi';
import { describe, expect, it } from 'vitest';
import { OAuthError } from './oauth-error.ts';
import { formParams, queryParams } from './params.ts';
import { resolveScopes } from './scope-request.ts';
import { verifyS256 } from './pkce.ts';

const form = (body: string, type = 'application/x-www-form-urlencoded; charset=UTF-8') => ({
  method: 'POST',
  path: '/oauth/token',
  query: {},
  headers: { 'content-type': type },
  body: new TextEncoder().encode(body),
});

describe('OAuth parameters', () => {
  it('reads form bodies; empty values count as absent; duplicates and other content types are refused', () => {
    expect(formParams(form('grant_type=client_credentials&scope=&x=a+b'))).toEqual({
      grant_type: 'client_credentials',
      x: 'a b',
    });
    expect(() => formParams(form('a=1&a=2'))).toThrow(OAuthError);
    expect(() => formParams(form('{}', 'application/json'))).toThrow(/x-www-form-urlencoded/);
    expect(() => formParams({ ...form(''), body: new Uint8Array([0xff, 0xfe]) })).toThrow(/UTF-8/);
    expect(queryParams({ client_id: 'a', state: '' })).toEqual({ client_id: 'a' });
    expect(() => queryParams({ state: ['a', 'b'] })).toThrow(/more than once/);
  });

  it('grants a subset of the allowed scopes, all of them by default, else invalid_scope', () => {
    expect(resolveScopes(undefined, ['catalog:read', 'audit:read'])).toEqual(['catalog:read', 'audit:read']);
    expect(resolveScopes('audit:read  catalog:read', ['catalog:read', 'audit:read'])).toEqual([
      'catalog:read',
      'audit:read',
    ]);
    try {
      resolveScopes('catalog:read admin <script>', ['catalog:read']);
      expect.unreachable();
    } catch (err) {
      expect((err as OAuthError).code).toBe('invalid_scope');
      expect((err as OAuthError).message).toContain('admin');
      expect((err as OAuthError).message).not.toContain('<script>');
    }
  });

  it('verifies S256 as an independent client library derives it', async () => {
    const verifier = oauth.generateRandomCodeVerifier();
    const challenge = await oauth.calculatePKCECodeChallenge(verifier);
    expect(verifyS256(verifier, challenge)).toBe(true);
    expect(verifyS256(oauth.generateRandomCodeVerifier(), challenge)).toBe(false);
    expect(verifyS256(verifier, challenge.slice(1))).toBe(false);
  });
});
