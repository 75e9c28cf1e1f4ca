import { describe, expect, it, type TestContext } from 'vitest';
import { httpTarget, mswTarget, sleepOn, type Target, type TargetFactory, testClock } from '../harness.ts';
import { referenceClient } from './reference-client.ts';
import { CONNECTION } from './scenarios.ts';

const statusOf = (t: Target, id: string) => t.sandbox.clientReport().rules.find((r) => r.id === id)?.status;

function faultSuite(name: string, factory: TargetFactory) {
  // Over HTTP side by side (a server and clock each), over MSW one at a time (it intercepts this process's fetch).
  (name === 'HTTP' ? describe.concurrent : describe)(`faults for client duties over ${name}`, () => {
    const open = async (ctx: TestContext, options: Parameters<TargetFactory>[0]) => {
      const target = await factory(options);
      ctx.onTestFinished(() => target.close());
      return target;
    };

    for (const failWith of ['internal', 'unavailable', 'drop', 'timeout'] as const)
      it(`commit_then_fail (${failWith}): the write is committed, only a retry with the same key gets the outcome`, async (ctx) => {
        const t = await open(ctx, { activationDelayMs: 0, clock: testClock() });
        // The client's own timeout is real time (its socket gives up): short, as the held answer
        // (sandbox clock) never comes before the test advances the clock.
        const c = referenceClient(t, { timeoutMs: 400 });
        t.sandbox.control.addFault({
          kind: 'commit_then_fail',
          route: 'createConnection',
          tenant: c.tenant,
          failWith,
          holdMs: 1_500,
        });
        const answer = await c.call('POST', '/connections', { body: CONNECTION, key: true });
        expect(answer.status).toBe(200);
        expect(answer.json.meta.replayed).toBe(true);
        expect(await t.sandbox.state.connections.count()).toBe(1);
        // A call is observed once its answer leaves (or its connection drops): the held one after 1.5 s
        // on the sandbox clock (the client's retry wait moved it under 1 s so far).
        if (failWith === 'timeout') await sleepOn(t, 1_000);
        expect(statusOf(t, 'retry.same-key-and-content')).toBe('pass');
        expect(statusOf(t, 'retry.only-after-failure')).toBe('pass');
      });

    it('a fault scoped to another tenant leaves this one alone; a duration fault ends', async (ctx) => {
      const t = await open(ctx, { clock: testClock() });
      const c = referenceClient(t, { maxAttempts: 1 });
      t.sandbox.control.addFault({ kind: 'internal', route: 'listProviders', tenant: 'lakeside-cafes' });
      expect((await c.call('GET', '/providers')).status).toBe(200);
      t.sandbox.control.addFault({ kind: 'rate_limited', route: 'listProviders', durationSeconds: 0.4 });
      expect((await c.call('GET', '/providers')).status).toBe(429);
      expect((await c.call('GET', '/providers')).status).toBe(429);
      await sleepOn(t, 500);
      expect((await c.call('GET', '/providers')).status).toBe(200);
    });

    it('stream_stall: silence, then the end; the client resumes from the last number read', async (ctx) => {
      const t = await open(ctx, { clock: testClock() });
      const c = referenceClient(t);
      t.sandbox.control.addFault({ kind: 'stream_stall', afterMessages: 1, stallMs: 600 });
      const ids = await c.stream({
        reconnects: 1,
        count: 2,
        onOpen: (i) => {
          t.sandbox.control.trigger({ event: 'order.created', tenant: c.tenant });
          // Published during the stall: withheld on the first connection, read after the resume.
          if (i === 0) t.sandbox.control.trigger({ event: 'order.paid', tenant: c.tenant });
        },
      });
      expect(ids.slice(0, 2)).toEqual([1, 2]);
      expect(statusOf(t, 'stream.resume-from-last-read')).toBe('pass');
    });

    it('stream_restart: the stream ends and answers 503 for a while; the client comes back and resumes', async (ctx) => {
      const t = await open(ctx, { clock: testClock() });
      const c = referenceClient(t);
      t.sandbox.control.addFault({ kind: 'stream_restart', afterMessages: 1, downMs: 400 });
      const notes: string[] = [];
      const ids = await c.stream({
        reconnects: 4,
        count: 2,
        notes,
        onOpen: (i) => {
          if (i === 0)
            for (const event of ['order.created', 'order.paid'] as const)
              t.sandbox.control.trigger({ event, tenant: c.tenant });
        },
      });
      expect(notes).toContain('status 503');
      expect(ids).toEqual([1, 2]);
      expect(statusOf(t, 'stream.resume-from-last-read')).toBe('pass');
    });

    it('cursor_expired: a resume is told its cursor is older than retention (stream.reset) and goes on live', async (ctx) => {
      const t = await open(ctx, { clock: testClock() });
      const c = referenceClient(t);
      t.sandbox.control.addFault({ kind: 'stream_cut', afterMessages: 1 });
      t.sandbox.control.addFault({ kind: 'cursor_expired' });
      const notes: string[] = [];
      const ids = await c.stream({
        reconnects: 1,
        count: 2,
        notes,
        onOpen: () => t.sandbox.control.trigger({ event: 'order.created', tenant: c.tenant }),
      });
      expect(notes).toContain('stream.reset');
      expect(ids).toEqual([1, 2]);
      expect(t.sandbox.control.listFaults()).toEqual([]);
    });
  });
}

faultSuite('HTTP', httpTarget);
faultSuite('MSW', mswTarget);
