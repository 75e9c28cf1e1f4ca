// Round 9: does the kit carry its secrets to another origin? The hostile deployment redirects the token
// request and API calls (307/308/301) to a second loopback port, names a token endpoint on another
// origin in metadata whose issuer is not the deployment, issues tokens with odd lifetimes or of 10 MB.
// Expect: no client secret, Basic credentials or bearer token ever reaches the other origin.
import { describe, expect, it } from 'vitest';
import { BACKEND } from './attacks-round7-helpers.ts';
import { type ChildRun, recorder, runKitInChild } from './attacks-round9-hostile.ts';
import { env, finishedBounded, hostile, kitOptions, useHostile } from './attacks-round9-kit-setup.ts';

useHostile();
const WELL_KNOWN = '/.well-known/oauth-authorization-server';
const T = 120_000;
const path = (url: string | undefined) => (url ?? '').replace(/\?.*$/s, '');
const basicValue = Buffer.from(`${BACKEND.id}:${BACKEND.secret}`).toString('base64');

/** Serves RFC 8414 metadata for the proxy: its token endpoint, the methods listed, the issuer given. */
function metadata(opts: { tokenEndpoint: string; methods?: string[]; issuer?: string }) {
  return (req: import('node:http').IncomingMessage, res: import('node:http').ServerResponse) => {
    if (path(req.url) !== WELL_KNOWN) return false;
    res.writeHead(200, { 'content-type': 'application/json' });
    res.end(
      JSON.stringify({
        issuer: opts.issuer ?? hostile().url,
        token_endpoint: opts.tokenEndpoint,
        token_endpoint_auth_methods_supported: opts.methods ?? ['client_secret_basic', 'client_secret_post'],
        grant_types_supported: ['client_credentials'],
      }),
    );
    return true;
  };
}

/** Nothing the recorder got carries the client secret, the Basic credentials or `extra`. */
function nothingSecret(got: { headers: Record<string, unknown>; body: string }[], extra: string[] = []) {
  const all = JSON.stringify(got);
  for (const s of [BACKEND.secret, encodeURIComponent(BACKEND.secret), basicValue, ...extra])
    expect(all, `the other origin got ${all.slice(0, 600)}`).not.toContain(s);
}

const exitOf = (run: ChildRun) => run.result?.exitCode;

describe('round 9: the kit keeps its secrets on the deployment', () => {
  for (const status of [307, 308]) {
    // Held after the fix: the client follows redirects by hand and never carries a body or Authorization to another origin (redirects.ts); the token request fails naming it.
    it(
      `a ${status} from the token endpoint (client_secret_post) sends the secret nowhere else`,
      async () => {
        const other = await recorder();
        try {
          const meta = metadata({ tokenEndpoint: `${hostile().url}/oauth/token`, methods: ['client_secret_post'] });
          hostile().attack = (req, res) => {
            if (meta(req, res)) return true;
            if (path(req.url) !== '/oauth/token') return false;
            res.writeHead(status, { location: `${other.url}/oauth/token` });
            res.end();
            return true;
          };
          const run = await runKitInChild(kitOptions({ grep: '^auth\\.missing-token$' }), 60_000);
          finishedBounded(run, 45_000);
          nothingSecret(other.got);
          expect(exitOf(run)).toBe(2);
          expect(run.result?.error ?? '').toContain(`redirecting to ${other.url}`);
        } finally {
          await other.close();
        }
      },
      T,
    );
  }

  it(
    'a 307 from the token endpoint (client_secret_basic) sends no Basic credentials elsewhere',
    async () => {
      const other = await recorder();
      try {
        const meta = metadata({ tokenEndpoint: `${hostile().url}/oauth/token`, methods: ['client_secret_basic'] });
        hostile().attack = (req, res) => {
          if (meta(req, res)) return true;
          if (path(req.url) !== '/oauth/token') return false;
          res.writeHead(307, { location: `${other.url}/oauth/token` });
          res.end();
          return true;
        };
        const run = await runKitInChild(kitOptions({ grep: '^auth\\.missing-token$' }), 60_000);
        finishedBounded(run, 45_000);
        nothingSecret(other.got);
      } finally {
        await other.close();
      }
    },
    T,
  );

  it(
    'API calls redirected (307, 301) to another origin carry no bearer token there',
    async () => {
      const other = await recorder();
      const token = env.sim?.token ?? '';
      try {
        hostile().attack = (req, res) => {
          const p = path(req.url);
          if (!p.endsWith('/info') && !p.endsWith('/providers') && !p.endsWith('/capabilities')) return false;
          res.writeHead(p.endsWith('/providers') ? 301 : 307, { location: `${other.url}${req.url}` });
          res.end();
          return true;
        };
        const opts = {
          ...kitOptions({ grep: '^(catalog\\.count-matches|capabilities\\.default-environment)$' }),
          token,
        };
        delete (opts as Record<string, unknown>).clientId;
        delete (opts as Record<string, unknown>).clientSecret;
        const run = await runKitInChild(opts, 60_000);
        finishedBounded(run, 45_000);
        nothingSecret(other.got, [token]);
      } finally {
        await other.close();
      }
    },
    T,
  );

  // Held after the fix: metadata whose issuer is not the one its well-known address was built from is ignored (oauth-metadata.ts issuerMatches).
  it(
    'metadata whose issuer is not the deployment is not used: the secret is not sent to its token endpoint',
    async () => {
      const other = await recorder();
      try {
        hostile().attack = metadata({ tokenEndpoint: `${other.url}/oauth/token`, issuer: other.url });
        const run = await runKitInChild(kitOptions({ grep: '^auth\\.missing-token$' }), 60_000);
        finishedBounded(run, 45_000);
        nothingSecret(other.got);
      } finally {
        await other.close();
      }
    },
    T,
  );

  for (const expires of ['0', '-1', '1e308', '"3600"']) {
    it(
      `a token issued with expires_in ${expires} neither crashes the run nor renews it without bound`,
      async () => {
        let grants = 0;
        const upstream = env.sim?.baseUrl ?? '';
        const meta = metadata({ tokenEndpoint: `${hostile().url}/oauth/token` });
        hostile().attack = async (req, res, body) => {
          if (meta(req, res)) return true;
          if (path(req.url) !== '/oauth/token') return false;
          grants++;
          const up = await fetch(`${upstream}/oauth/token`, {
            method: 'POST',
            headers: {
              authorization: String(req.headers.authorization ?? ''),
              'content-type': 'application/x-www-form-urlencoded',
            },
            body: body.toString(),
          });
          const json = (await up.json()) as Record<string, unknown>;
          res.writeHead(up.status, { 'content-type': 'application/json' });
          res.end(JSON.stringify({ ...json, expires_in: '__E__' }).replace('"__E__"', expires));
          return true;
        };
        const run = await runKitInChild(kitOptions({ grep: '^(catalog\\.count-matches|catalog\\.filters)$' }), 90_000);
        const r = finishedBounded(run, 60_000);
        expect(r?.exitCode, JSON.stringify(r?.results)).toBe(0);
        const apiCalls = hostile().seen.filter(
          (s) => s.path.startsWith('/api/public/v1/') && s.path !== '/api/public/v1/openapi.json',
        ).length;
        expect(grants).toBeLessThanOrEqual(apiCalls + 1);
      },
      T,
    );
  }

  it(
    'a 10 MB access token is refused with one short line, the token not printed',
    async () => {
      const meta = metadata({ tokenEndpoint: `${hostile().url}/oauth/token` });
      hostile().attack = (req, res) => {
        if (meta(req, res)) return true;
        if (path(req.url) !== '/oauth/token') return false;
        res.writeHead(200, { 'content-type': 'application/json' });
        res.end(JSON.stringify({ access_token: 'T'.repeat(10 << 20), token_type: 'Bearer', expires_in: 3600 }));
        return true;
      };
      const run = await runKitInChild(kitOptions({ grep: '^auth\\.missing-token$' }), 60_000);
      const r = finishedBounded(run, 45_000);
      expect(r?.exitCode).toBe(2);
      expect((r?.error ?? '').length).toBeLessThan(1000);
    },
    T,
  );
});
