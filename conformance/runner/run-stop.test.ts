// --max-failures / --fail-fast: the run stops starting checks after n failed MUSTs, cancels the running
// ones (their requests end at once), still cleans up, and every reporter says what was not run.
import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { httpTarget } from '../e2e/targets.ts';
import { createConsoleReporter } from '../reporters/console.ts';
import { createHtmlReporter } from '../reporters/html.ts';
import { createJsonReporter } from '../reporters/json.ts';
import { JsonReport } from '../reporters/json-report.ts';
import { createJUnitReporter } from '../reporters/junit.ts';
import { testCheck } from '../test-support/test-check.ts';
import type { CheckDef } from './check.ts';
import type { RunEvent } from './events.ts';
import { runConformance } from './run.ts';
import { NOT_RUN_REASON } from './run-check.ts';

const PROVIDERS = '/api/public/v1/providers';

/**
 * A loopback server beside the target: GET /hang never answers (it records when the kit gives the
 * request up); POST /create answers once `release` is called (a creation on its way when the run
 * stops); any other path answers 204 and is recorded (the cleanups).
 */
interface Side {
  origin: string;
  hangArrived: Promise<void>;
  hangClosed: Promise<void>;
  createArrived: Promise<void>;
  release(): void;
  cleanups: string[];
  close(): Promise<void>;
}
async function sideServer(): Promise<Side> {
  let arrived!: () => void;
  let closed!: () => void;
  let createArrived!: () => void;
  let release!: () => void;
  const released = new Promise<void>((r) => (release = r));
  const side = {
    hangArrived: new Promise<void>((r) => (arrived = r)),
    hangClosed: new Promise<void>((r) => (closed = r)),
    createArrived: new Promise<void>((r) => (createArrived = r)),
    release,
    cleanups: [],
  } as unknown as Side;
  const server: Server = createServer((req: IncomingMessage, res) => {
    if (req.url === '/hang') {
      req.socket.once('close', closed);
      arrived();
      return;
    }
    if (req.url === '/create') {
      createArrived();
      void released.then(() => res.writeHead(201, { 'content-type': 'application/json' }).end('{"id":"made-1"}'));
      return;
    }
    side.cleanups.push(`${req.method} ${req.url}`);
    res.writeHead(204).end();
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  side.origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  side.close = () =>
    new Promise<void>((r) => {
      server.closeAllConnections();
      server.close(() => r());
    });
  return side;
}

const check = testCheck;

/**
 * Checks run in list order, three at a time: `in-flight` and `in-flight-create` (if kept) are running
 * when `first-must` fails.
 */
function checks(side: Side, inFlight = true): CheckDef[] {
  const none = { credentials: 'none', retry: false } as const;
  const all = [
    check('demo.in-flight', {
      async run(ctx) {
        ctx.atRunEnd(async () => void (await ctx.call('DELETE', `${side.origin}/cleanup`, none)));
        await ctx.call('GET', `${side.origin}/hang`, none);
        ctx.fail({ expected: 'never judged: the request above is cancelled', observed: 'it answered' });
      },
    }),
    check('demo.in-flight-create', {
      async run(ctx) {
        const made = await ctx.call('POST', `${side.origin}/create`, { ...none, json: {} });
        const id = (made.json as { id: string }).id;
        ctx.atRunEnd(async () => void (await ctx.call('DELETE', `${side.origin}/created/${id}`, none)));
        await ctx.call('GET', `${side.origin}/after-create`, none);
        ctx.fail({ expected: 'never judged: the call above is refused', observed: 'it answered' });
      },
    }),
    check('demo.should-fails', {
      severity: 'SHOULD',
      async run(ctx) {
        ctx.fail({ expected: 'something advisory', observed: 'not so' });
      },
    }),
    check('demo.first-must', {
      async run(ctx) {
        if (inFlight) await Promise.all([side.hangArrived, side.createArrived]);
        ctx.expect.status(await ctx.call('GET', PROVIDERS, { tenant: false }), 200, 'answers 200 without a tenant');
      },
    }),
    check('demo.second-must', {
      async run(ctx) {
        ctx.fail({ expected: 'a second MUST', observed: 'failed' });
      },
    }),
    check('demo.later', {
      async run(ctx) {
        ctx.expect.status(await ctx.call('GET', PROVIDERS), 200, 'answers 200');
      },
    }),
    check('demo.judges-run', { judgesRun: true }),
  ];
  return inFlight ? all : all.filter((c) => !c.name.startsWith('demo.in-flight'));
}

describe('runConformance with maxFailures / failFast', () => {
  let target: Awaited<ReturnType<typeof httpTarget>>;
  // One simulator for the file: each check here reads the catalog or fails by itself, so no verdict
  // depends on what another test left; the side server is fresh per run (its promises are one-shot).
  let side: Side;
  const unhandled: unknown[] = [];
  const onUnhandled = (err: unknown) => void unhandled.push(err);
  beforeAll(async () => {
    process.on('unhandledRejection', onUnhandled);
    target = await httpTarget();
  });
  afterAll(async () => {
    process.off('unhandledRejection', onUnhandled);
    await target.close();
  });

  const run = async (over: Parameters<typeof runConformance>[0], inFlight = true) => {
    side = await sideServer();
    try {
      return await runConformance({
        ...target.kit,
        checks: checks(side, inFlight),
        concurrency: 3,
        timeoutMs: 60_000,
        ...over,
        onEvent: (e) => {
          over?.onEvent?.(e);
          // The creation on its way is answered only once the run has stopped (or would have).
          if (e.type === 'check-fail' && e.result.check.name === 'demo.first-must') side.release();
        },
      });
    } finally {
      await side.close();
    }
  };

  it('stops after the first failed MUST: nothing new starts, the running check is cancelled, cleanups still run', async () => {
    const events: RunEvent[] = [];
    const result = await run({ failFast: true, onEvent: (e) => events.push(e) });
    const status = Object.fromEntries(result.results.map((r) => [r.check.name, [r.status, r.notRun ?? false]]));
    expect(status).toEqual({
      'demo.in-flight': ['skip', true],
      'demo.in-flight-create': ['skip', true],
      'demo.should-fails': ['fail', false],
      'demo.first-must': ['fail', false],
      'demo.second-must': ['skip', true],
      'demo.later': ['skip', true],
      'demo.judges-run': ['skip', true],
    });
    for (const r of result.results.filter((x) => x.notRun)) expect(r.reason).toBe(NOT_RUN_REASON);
    // The verdict is the full run's: a MUST failed, exit 1 (not 2: a cancelled request is not a lost target).
    expect(result.exitCode).toBe(1);
    expect(result.error).toBeUndefined();
    expect(result.stopped).toEqual({ maxFailures: 1, notRun: 5 });
    expect(result.summary).toMatchObject({ mustFailed: 1, shouldFailed: 1, skipped: 5, notRun: 5, errored: 0 });
    // Checks after the stop never started (no event); each started one has one result, the cancelled a skip.
    const started = events.flatMap((e) => (e.type === 'check-start' ? [e.check.name] : []));
    expect(started).toEqual(['demo.in-flight', 'demo.in-flight-create', 'demo.should-fails', 'demo.first-must']);
    const ended = events.flatMap((e) => ('result' in e ? [`${e.type} ${e.result.check.name}`] : []));
    expect(ended.sort()).toEqual([
      'check-fail demo.first-must',
      'check-fail demo.should-fails',
      'check-skip demo.in-flight',
      'check-skip demo.in-flight-create',
    ]);
    expect(events.at(-1)).toMatchObject({ type: 'run-end', exitCode: 1, stopped: { maxFailures: 1, notRun: 5 } });
    // The hanging request was given up (its connection closed), not left to its 60 s timeout.
    await side.hangClosed;
    // The creation on its way was answered and its removal registered; its next call was refused, not sent.
    expect(side.cleanups.sort()).toEqual(['DELETE /cleanup', 'DELETE /created/made-1']);
    expect(unhandled).toEqual([]);
  });

  it('a SHOULD failure does not count; --max-failures 2 stops after the second MUST', async () => {
    const result = await run({ maxFailures: 2, concurrency: 1 }, false);
    const status = Object.fromEntries(result.results.map((r) => [r.check.name, r.status]));
    expect(status).toEqual({
      'demo.should-fails': 'fail',
      'demo.first-must': 'fail',
      'demo.second-must': 'fail',
      'demo.later': 'skip',
      'demo.judges-run': 'skip',
    });
    expect(result.stopped).toEqual({ maxFailures: 2, notRun: 2 });
    expect(result.exitCode).toBe(1);
  });

  it('without the option every check runs, with the same exit code; a run with fewer failures never stops', async () => {
    const full = await run({}, false);
    expect(full.exitCode).toBe(1);
    expect(full.stopped).toBeUndefined();
    expect(full.results.filter((r) => r.notRun)).toEqual([]);
    expect(full.results.find((r) => r.check.name === 'demo.later')?.status).toBe('pass');
    const under = await run({ maxFailures: 3 }, false);
    expect(under.stopped).toBeUndefined();
    expect(under.results.map((r) => r.status)).toEqual(full.results.map((r) => r.status));
  });

  it('refuses --max-failures below 1 and --fail-fast with another count (exit 2)', async () => {
    expect(await run({ maxFailures: 0 })).toMatchObject({
      exitCode: 2,
      error: expect.stringMatching(/--max-failures must be a positive/),
    });
    expect(await run({ failFast: true, maxFailures: 3 })).toMatchObject({
      exitCode: 2,
      error: expect.stringMatching(/--fail-fast/),
    });
  });

  it('every reporter says the run stopped and how many checks were not run', async () => {
    const out = { console: '', json: '', junit: '', html: '' };
    const reporters = [
      createConsoleReporter({
        write: (t) => {
          out.console += t;
        },
        color: false,
      }),
      createJsonReporter({
        write: (t) => {
          out.json = t;
        },
      }),
      createJUnitReporter({
        write: (t) => {
          out.junit = t;
        },
      }),
      createHtmlReporter({
        write: (t) => {
          out.html = t;
        },
      }),
    ];
    await run({
      failFast: true,
      onEvent: (e) => {
        for (const r of reporters) r.onEvent(e);
      },
    });
    const line = 'stopped after the first MUST failure: 5 checks not run';
    expect(out.console).toContain(line);
    expect(out.console).toMatch(/not conformant: 0 passed, 1 MUST failed, 1 advisory warning, 0 skipped, 5 not run/);
    const json = JsonReport.parse(JSON.parse(out.json));
    expect(json.stopped).toEqual({ maxFailures: 1, notRun: 5 });
    expect(
      json.results
        .filter((r) => r.notRun)
        .map((r) => r.check.name)
        .sort(),
    ).toEqual(['demo.in-flight', 'demo.in-flight-create', 'demo.judges-run', 'demo.later', 'demo.second-must']);
    expect(out.junit).toContain(`<property name="stopped" value="${line}"/>`);
    expect(out.junit).toContain(`<skipped message="${NOT_RUN_REASON}"/>`);
    expect(out.html).toContain(line);
    expect(out.html).toContain('<div><b>5</b>not run</div>');
  });
});
