import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { redirectMatches } from './redirect-match.ts';

const MOBILE = 'http://127.0.0.1:8976/callback';

describe('redirectMatches: exact, except the port of a loopback IP redirect URI', () => {
  it('accepts the registered string, and a loopback IP literal with any valid port or none', () => {
    expect(redirectMatches(MOBILE, MOBILE)).toBe(true);
    expect(redirectMatches(MOBILE, 'http://127.0.0.1:53122/callback')).toBe(true);
    expect(redirectMatches(MOBILE, 'http://127.0.0.1/callback')).toBe(true);
    expect(redirectMatches('http://[::1]:8976/cb?app=1', 'http://[::1]:65535/cb?app=1')).toBe(true);
    expect(redirectMatches('http://127.0.0.1/cb', 'http://127.0.0.1:1/cb')).toBe(true);
    fc.assert(
      fc.property(fc.integer({ min: 1, max: 65_535 }), (port) =>
        redirectMatches(MOBILE, `http://127.0.0.1:${port}/callback`),
      ),
      { seed: 8252 },
    );
  });

  it('refuses anything else that differs, however close', () => {
    for (const sent of [
      'http://127.0.0.1:53122/callback/',
      'http://127.0.0.1:53122/Callback',
      'http://127.0.0.1:53122/callback?x=1',
      'http://127.0.0.1:53122/callback#f',
      'http://127.0.0.1:53122/../callback',
      'http://127.0.0.1:53122',
      'http://127.0.0.1:0/callback',
      'http://127.0.0.1:65536/callback',
      'http://127.0.0.1:08976/callback',
      'http://127.0.0.1:/callback',
      'http://127.0.0.1:8976x/callback',
      'http://user@127.0.0.1:8976/callback',
      'http://127.0.0.1.attacker.example:8976/callback',
      'http://127.0.0.2:8976/callback',
      'http://[::1]:8976/callback',
      'https://127.0.0.1:8976/callback',
      'HTTP://127.0.0.1:8976/callback',
      'http://localhost:8976/callback',
    ])
      expect(redirectMatches(MOBILE, sent), sent).toBe(false);
    // A name is not a loopback IP literal: a hosts file can point `localhost` anywhere (RFC 8252 8.3).
    expect(redirectMatches('http://localhost:8976/callback', 'http://localhost:53122/callback')).toBe(false);
    // Other hosts keep their exact port.
    expect(redirectMatches('https://app.example/cb', 'https://app.example:8443/cb')).toBe(false);
  });
});
