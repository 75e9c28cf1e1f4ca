// Round 9: more of the kit as the victim: a redirect loop on the self-description, a Content-Length the
// body never reaches, a million tiny stream messages, and the kit's own webhook receiver flooded by the
// deployment it registered with (ten 30 MB requests at once). Bounded memory and time, no fault.
import { request } from 'node:http';
import { describe, expect, it } from 'vitest';
import { runKitInChild } from './attacks-round9-hostile.ts';
import { finishedBounded, hostile, kitOptions, useHostile } from './attacks-round9-kit-setup.ts';
import { flood } from './attacks-round9-payloads.ts';

useHostile();
const T = 120_000;
const path = (url: string | undefined) => (url ?? '').replace(/\?.*$/s, '');

/** POSTs `mb` megabytes to a loopback URL (the kit's receiver), ignoring the answer. */
function postFlood(url: string, mb: number): Promise<void> {
  return new Promise((done) => {
    const u = new URL(url);
    if (u.hostname !== '127.0.0.1') return done(); // loopback only
    const req = request(
      {
        host: u.hostname,
        port: u.port,
        path: u.pathname,
        method: 'POST',
        headers: { 'content-type': 'application/json' },
      },
      (res) => {
        res.resume();
        res.on('end', () => done());
      },
    );
    req.on('error', () => done());
    const chunk = Buffer.alloc(256 * 1024, 'w');
    let left = mb * 4;
    const pump = () => {
      while (left > 0) {
        left--;
        if (!req.write(chunk)) return void req.once('drain', pump);
      }
      req.end();
    };
    pump();
  });
}

describe('round 9: the kit against a hostile deployment, more', () => {
  it(
    'a redirect loop on the self-description: exit 2 with one clear line',
    async () => {
      hostile().attack = (req, res) => {
        if (path(req.url) !== '/api/public/v1') return false;
        res.writeHead(302, { location: '/api/public/v1' });
        res.end();
        return true;
      };
      const r = finishedBounded(await runKitInChild(kitOptions({ grep: '^auth\\.missing-token$' }), 60_000), 45_000);
      expect([0, 2]).toContain(r?.exitCode); // the OpenAPI document alone may identify the target
    },
    T,
  );

  it(
    'a Content-Length the body never reaches (the socket closed early): judged or refused, no fault',
    async () => {
      hostile().attack = (req, res) => {
        if (!path(req.url).endsWith('/providers')) return false;
        res.writeHead(200, { 'content-type': 'application/json', 'content-length': '100000' });
        res.write('{"ok":true,"data":{"providers":[');
        setTimeout(() => res.destroy(), 50);
        return true;
      };
      const grep = '^(catalog\\.count-matches|responses\\.envelope)$';
      const r = finishedBounded(await runKitInChild(kitOptions({ grep }), 60_000), 45_000);
      expect(r?.exitCode).not.toBe(0);
    },
    T,
  );

  it(
    'a stream of a million tiny messages is read within --max-stream-bytes and memory',
    async () => {
      hostile().attack = (req, res) => {
        if (!path(req.url).endsWith('/stream')) return false;
        res.writeHead(200, { 'content-type': 'text/event-stream' });
        void flood(res, Buffer.from('data:x\n\n'.repeat(8192)), 1_000_000 * 8);
        return true;
      };
      const r = finishedBounded(await runKitInChild(kitOptions({ grep: '^sse\\.consecutive-ids$' }), 90_000), 60_000);
      expect(r?.exitCode).not.toBe(0);
    },
    T,
  );

  it(
    "the kit's webhook receiver flooded by the deployment (10 x 30 MB at once) stays bounded",
    async () => {
      const floods: Promise<void>[] = [];
      hostile().attack = (req, _res, body) => {
        if (req.method !== 'POST' || !path(req.url).endsWith('/webhooks')) return false;
        try {
          const url = (JSON.parse(body.toString()) as { url?: unknown }).url;
          if (typeof url === 'string') for (let i = 0; i < 10; i++) floods.push(postFlood(url, 30));
        } catch {}
        return false; // registered for real: the kit's checks go on
      };
      const grep = '^webhooks\\.(registration|delivery-arrives)$';
      const run = await runKitInChild(kitOptions({ grep, webhookTimeoutMs: 5000 }), 100_000);
      await Promise.all(floods);
      expect(floods.length).toBeGreaterThan(0);
      finishedBounded(run, 80_000);
    },
    T,
  );
});
