// A 429 is the deployment pacing the kit: an expectation whose answer is rate_limited after the retry
// policy is not judged (the check skips, saying so), except in checks about 429s themselves.
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { httpTarget } from '../e2e/targets.ts';
import { testCheck } from '../test-support/test-check.ts';
import type { CheckDef } from './check.ts';
import { runConformance } from './run.ts';
import { collapsed } from './run-check.ts';

let server: Server;
let base: string;
let target: Awaited<ReturnType<typeof httpTarget>>;
beforeAll(async () => {
  // The simulator is the target (the run's preflight needs one); the checks call the side server.
  target = await httpTarget();
  // /limited always answers 429 (Retry-After 0: the retry policy's own waits stay short); /ok answers 200.
  server = createServer((req, res) => {
    const limited = req.url?.startsWith('/limited');
    res.writeHead(limited ? 429 : 200, {
      'content-type': 'application/json',
      ...(limited ? { 'retry-after': '0' } : {}),
    });
    res.end(limited ? '{"ok":false,"error":{"code":"rate_limited","message":"slow down"}}' : '{"ok":true}');
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(async () => {
  await target.close();
  await new Promise<void>((r) => server.close(() => r()));
});

async function resultOf(check: CheckDef) {
  // The retry policy's waits skipped (the kit's own tests of the policy time them): only its outcome matters.
  const run = await runConformance({ ...target.kit, checks: [check], retry: { sleep: async () => undefined } });
  return run.results[0];
}

describe('a 429 is no verdict about the rule a check judges', () => {
  it('an expectation answered 429 after the retry policy is not judged: the check skips and says why', async () => {
    const r = await resultOf(
      testCheck('demo.paced', {
        run: async (ctx) =>
          void ctx.expect.status(await ctx.call('GET', `${base}/limited`, { credentials: 'none' }), 200, 'x'),
      }),
    );
    expect(r?.status).toBe('skip');
    expect(r?.reason).toMatch(/rate limited \(429\) after the retry policy: 1 expectation\(s\) not judged/);
  });

  it('a failure on another answer still fails the check', async () => {
    const r = await resultOf(
      testCheck('demo.mixed', {
        run: async (ctx) => {
          ctx.expect.status(await ctx.call('GET', `${base}/limited`, { credentials: 'none' }), 200, 'paced');
          ctx.expect.that(false, { expected: 'a real failure', observed: 'no' });
        },
      }),
    );
    expect(r?.status).toBe('fail');
    expect(r?.failures.map((f) => f.expected)).toEqual(['a real failure']);
  });

  it('checks about rate limits keep their 429s', async () => {
    const r = await resultOf(
      testCheck('demo.rate', {
        tags: ['rate-limit'],
        run: async (ctx) =>
          void ctx.expect.status(await ctx.call('GET', `${base}/limited`, { credentials: 'none' }), 200, 'x'),
      }),
    );
    expect(r?.status).toBe('fail');
  });
});

describe("a check's notes", () => {
  it('says a note repeated by retried reads once, with how often', () => {
    expect(collapsed(['the page could not be reached', 'read 2 pages', 'the page could not be reached'])).toEqual([
      'the page could not be reached (2 times)',
      'read 2 pages',
    ]);
    expect(collapsed([])).toEqual([]);
  });
});
