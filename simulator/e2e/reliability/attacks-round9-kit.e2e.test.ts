// Round 9: the conformance kit as the victim of a hostile deployment: compression bombs, bodies and
// streams that never end, huge headers, stalls, deep JSON, __proto__ keys. Each run is a child process
// with a 512 MB heap, killed after a deadline; the expectation is bounded memory and time, a clear error
// (exit 2) or a judged answer (exit 1), never a crash or a fault of the kit's own code.
import { describe, expect, it } from 'vitest';
import { runKitInChild } from './attacks-round9-hostile.ts';
import { env, finishedBounded, hostile, kitOptions, useHostile } from './attacks-round9-kit-setup.ts';
import { bomb, deepArray, flood } from './attacks-round9-payloads.ts';

useHostile();
const SELF = '/api/public/v1';
const DOC = '/api/public/v1/openapi.json';
const path = (url: string | undefined) => (url ?? '').replace(/\?.*$/s, '');
const T = 120_000;

describe('round 9: the kit against hostile answers', () => {
  it(
    'baseline: an honest deployment behind the proxy passes one check',
    async () => {
      const r = finishedBounded(await runKitInChild(kitOptions({ grep: '^auth\\.missing-token$' }), 60_000), 60_000);
      expect(r?.exitCode).toBe(0);
    },
    T,
  );

  it(
    'a gzip bomb (512 MB inflated) as the self-description is cut at --max-body-bytes',
    async () => {
      const gz = await bomb('gzip');
      hostile().attack = (req, res) => {
        if (path(req.url) !== SELF) return false;
        res.writeHead(200, { 'content-type': 'application/json', 'content-encoding': 'gzip' });
        res.end(gz);
        return true;
      };
      const r = finishedBounded(await runKitInChild(kitOptions({ grep: '^auth\\.missing-token$' }), 90_000), 60_000);
      expect(r?.notices.join('\n')).toMatch(/longer than \d+ bytes/);
    },
    T,
  );

  it(
    'a brotli bomb (512 MB inflated) as the OpenAPI document is cut at --max-body-bytes',
    async () => {
      const br = await bomb('br');
      hostile().attack = (req, res) => {
        if (path(req.url) !== DOC) return false;
        res.writeHead(200, { 'content-type': 'application/json', 'content-encoding': 'br' });
        res.end(br);
        return true;
      };
      const r = finishedBounded(
        await runKitInChild(kitOptions({ grep: '^discovery\\.openapi-valid$' }), 90_000),
        60_000,
      );
      expect(r?.exitCode).toBe(1);
      expect(r?.notices.join('\n')).toMatch(/longer than \d+ bytes/);
    },
    T,
  );

  it(
    'an endless chunked body from GET /providers is cut, the check fails, the run ends',
    async () => {
      hostile().attack = (req, res) => {
        if (!path(req.url).endsWith('/providers')) return false;
        res.writeHead(200, { 'content-type': 'application/json' });
        void flood(res, Buffer.alloc(64 * 1024, 'a'));
        return true;
      };
      const grep = '^(catalog\\.count-matches|responses\\.envelope)$';
      const r = finishedBounded(await runKitInChild(kitOptions({ grep }), 90_000), 60_000);
      expect(r?.exitCode).not.toBe(0);
    },
    T,
  );

  it(
    'a body dripping one byte every 200 ms ends at the request timeout, not never',
    async () => {
      hostile().attack = (req, res) => {
        if (!path(req.url).endsWith('/providers')) return false;
        res.writeHead(200, { 'content-type': 'application/json' });
        void flood(res, Buffer.from(' '), 1 << 20, 200);
        return true;
      };
      const r = finishedBounded(await runKitInChild(kitOptions({ grep: '^catalog\\.count-matches$' }), 90_000), 60_000);
      expect(r?.exitCode).not.toBe(0);
    },
    T,
  );

  it(
    '1 MB of response headers on the self-description: exit 2 with one short line',
    async () => {
      hostile().attack = (req, res) => {
        if (path(req.url) !== SELF) return false;
        res.writeHead(200, { 'content-type': 'application/json', 'x-junk': 'j'.repeat(1 << 20) });
        res.end('{}');
        return true;
      };
      const r = finishedBounded(await runKitInChild(kitOptions({ grep: '^auth\\.missing-token$' }), 60_000), 60_000);
      expect(r?.exitCode).toBe(2);
      expect(r?.error ?? '').toMatch(/\S/);
      expect((r?.error ?? '').length).toBeLessThan(2000);
    },
    T,
  );

  it(
    'headers, then silence: the OpenAPI read ends at --timeout with a clear error',
    async () => {
      hostile().attack = (req, res) => {
        if (path(req.url) !== DOC) return false;
        res.writeHead(200, { 'content-type': 'application/json' });
        res.write('{"openapi":');
        return true; // never ends; the proxy's close() destroys the socket
      };
      const run = await runKitInChild(kitOptions({ grep: '^discovery\\.openapi-valid$' }), 60_000);
      const r = finishedBounded(run, 40_000);
      expect(r?.exitCode).not.toBe(0);
      expect(JSON.stringify(r)).toMatch(/within 3000 ms/);
    },
    T,
  );

  it(
    'an event stream that sends one 200 MB line without a newline is cut at --max-stream-bytes',
    async () => {
      hostile().attack = (req, res) => {
        if (!path(req.url).endsWith('/stream')) return false;
        res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-store' });
        res.write('id: 1\ndata: ');
        void flood(res, Buffer.alloc(256 * 1024, 'x'), 200 << 20);
        return true;
      };
      const r = finishedBounded(await runKitInChild(kitOptions({ grep: '^sse\\.consecutive-ids$' }), 90_000), 60_000);
      expect(r?.exitCode).not.toBe(0);
      expect(r?.notices.join('\n')).toMatch(/stopped reading there/);
    },
    T,
  );

  it(
    'JSON nested 100,000 deep inside GET /providers is judged, not a fault of the kit',
    async () => {
      hostile().attack = (req, res) => {
        if (!path(req.url).endsWith('/providers')) return false;
        res.writeHead(200, { 'content-type': 'application/json' });
        const meta = { requestId: 'req-deep', version: '2026-07-01', at: new Date().toISOString() };
        res.end(
          `{"ok":true,"data":{"providers":[],"count":0,"deep":${deepArray(100_000)}},"meta":${JSON.stringify(meta)}}`,
        );
        return true;
      };
      const grep =
        '^(catalog\\.count-matches|responses\\.envelope|generated\\.contract-data|channels\\.no-secrets-or-internals)$';
      finishedBounded(await runKitInChild(kitOptions({ grep }), 90_000), 60_000);
    },
    T,
  );

  it(
    '__proto__ keys in the self-description and the catalog pollute nothing in the kit',
    async () => {
      const self = await (await fetch(`${env.sim?.baseUrl}${SELF}`)).text();
      hostile().attack = (req, res) => {
        const p = path(req.url);
        if (p !== SELF && !p.endsWith('/providers')) return false;
        const poison =
          '"__proto__":{"polluted":"yes","routes":[],"ok":false},"constructor":{"prototype":{"polluted":"yes"}},';
        res.writeHead(200, { 'content-type': 'application/json' });
        if (p === SELF) res.end(self.replace('{', `{${poison}`).replace('"data":{', `"data":{${poison}`));
        else res.end(`{${poison}"ok":true,"data":{${poison}"providers":[{${poison}"id":"p"}],"count":1},"meta":{}}`);
        return true;
      };
      const grep = '^(catalog\\.count-matches|responses\\.envelope|discovery\\.public-endpoints)$';
      const r = finishedBounded(await runKitInChild(kitOptions({ grep }), 90_000), 60_000);
      expect((r as { protoKeys?: string[] } | undefined)?.protoKeys).toEqual([]);
    },
    T,
  );

  // Held in part after the fix: a 1.8 MB self-description (under the 2 MiB cap) of 600,000 `{}` routes ran
  // the kit out of a 512 MB heap (a zod issue per missing field); entries are now checked one by one with
  // the first 20 problems kept, and the run ends, but still grows ~310 MB: bounded by --max-body-bytes (README).
  it(
    'a self-description listing 600,000 routes (under the body cap) is read in bounded time',
    async () => {
      const self = await (await fetch(`${env.sim?.baseUrl}${SELF}`)).text();
      const junk = Array.from({ length: 600_000 }, () => '{}').join(',');
      hostile().attack = (req, res) => {
        if (path(req.url) !== SELF) return false;
        res.writeHead(200, { 'content-type': 'application/json' });
        res.end(self.replace('"routes":[', `"routes":[${junk},`));
        return true;
      };
      const grep = '^(discovery\\.routes-match-openapi|discovery\\.interface-routes-listed)$';
      finishedBounded(await runKitInChild(kitOptions({ grep }), 90_000), 45_000, 450);
    },
    T,
  );

  it(
    "a 429 with Retry-After: 999999999 (beyond the kit's longest wait) does not hold the whole run",
    async () => {
      hostile().attack = (req, res) => {
        if (!path(req.url).endsWith('/providers')) return false;
        res.writeHead(429, { 'content-type': 'application/json', 'retry-after': '999999999' });
        const meta = { requestId: `req-${Math.random()}`, version: '2026-07-01', at: new Date().toISOString() };
        res.end(JSON.stringify({ ok: false, error: { code: 'rate_limited', message: 'slow down' }, meta }));
        return true;
      };
      const run = await runKitInChild(kitOptions({ grep: '^catalog\\.count-matches$' }), 100_000);
      // Held after the fix: a Retry-After beyond the kit's longest wait holds nothing (not retried either); the run says so once in its notices.
      const r = finishedBounded(run, 45_000);
      expect(r?.notices?.filter((n) => /Retry-After longer than the kit waits/.test(n)) ?? []).toHaveLength(1);
    },
    T,
  );
});
