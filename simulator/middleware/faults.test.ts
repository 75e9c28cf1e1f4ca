import { describe, expect, it } from 'vitest';
import { createFaultService } from '../services/fault-service.ts';
import { createFaultStore } from '../state/fault-store.ts';
import { faultStep } from './faults.ts';
import { raw, type Reply } from '../core/reply.ts';
import type { StreamSource } from '../core/types.ts';
import { okResponse, testContext } from '../test-support/test-context.ts';
import { createClock } from '../lib/clock.ts';
import { createTimeline } from '../lib/timeline.ts';

describe('faultStep', () => {
  it('applies a fault to the next N matching calls only', async () => {
    const faults = createFaultService({ repository: createFaultStore() });
    faults.add({ kind: 'rate_limited', route: 'x', remaining: 2, retryAfterSeconds: 3 });
    const mw = faultStep(faults).run;
    const call = () => mw(testContext(), async () => okResponse());
    await expect(call()).rejects.toMatchObject({ code: 'rate_limited', headers: { 'retry-after': '3' } });
    await expect(call()).rejects.toMatchObject({ code: 'rate_limited' });
    await expect(call()).resolves.toMatchObject({ status: 200 });
  });
  it('matches method and route', async () => {
    const faults = createFaultService({ repository: createFaultStore() });
    faults.add({ kind: 'internal', method: 'POST', route: '/api/public/v1/connections', remaining: 1 });
    expect(await faults.take({ method: 'GET', path: '/api/public/v1/connections' })).toBeUndefined();
    expect((await faults.take({ method: 'POST', path: '/api/public/v1/connections' }))?.kind).toBe('internal');
    expect(await faults.list()).toEqual([]);
  });
});

describe('faultStep: commit_then_fail, scopes and stream faults', () => {
  const streamReply = (stream: StreamSource) => raw({ status: 200, headers: {}, stream });
  const statusOf = (r: Reply) => ('raw' in r ? r.raw.status : r.status);
  it('commit_then_fail runs the call, then answers 500, 503 or drops the connection', async () => {
    const faults = createFaultService({ repository: createFaultStore() });
    const mw = faultStep(faults).run;
    let committed = 0;
    const commit = async () => {
      committed++;
      return okResponse();
    };
    faults.add({ kind: 'commit_then_fail', remaining: 1 });
    await expect(mw(testContext(), commit)).rejects.toMatchObject({ code: 'internal', status: 500 });
    faults.add({ kind: 'commit_then_fail', failWith: 'unavailable', remaining: 1 });
    expect(statusOf(await mw(testContext(), commit))).toBe(503);
    faults.add({ kind: 'commit_then_fail', failWith: 'drop', remaining: 1 });
    expect(await mw(testContext(), commit)).toMatchObject({ raw: { abort: true } });
    faults.add({ kind: 'commit_then_fail', failWith: 'timeout', holdMs: 5, remaining: 1 });
    expect(await mw(testContext(), commit)).toMatchObject({ raw: { abort: true } });
    expect(committed).toBe(4);
    expect(statusOf(await mw(testContext(), commit))).toBe(200);
  });
  it('leaves a failed call alone: nothing was committed', async () => {
    const faults = createFaultService({ repository: createFaultStore() });
    faults.add({ kind: 'commit_then_fail', remaining: 1 });
    const refused = async (): Promise<Reply> => raw({ status: 409, headers: {}, body: '{}' });
    expect(statusOf(await faultStep(faults).run(testContext(), refused))).toBe(409);
  });
  it('scopes a fault to a tenant and a duration', async () => {
    let now = 1000;
    const faults = createFaultService({ repository: createFaultStore(), now: () => now });
    faults.add({ kind: 'internal', tenant: 't1', remaining: Number.POSITIVE_INFINITY, expiresAt: 2000 });
    expect(await faults.take({ method: 'GET', path: '/x', tenant: 't2' })).toBeUndefined();
    expect((await faults.take({ method: 'GET', path: '/x', tenant: 't1' }))?.kind).toBe('internal');
    expect((await faults.take({ method: 'GET', path: '/x', tenant: 't1' }))?.kind).toBe('internal');
    now = 2000;
    expect(await faults.take({ method: 'GET', path: '/x', tenant: 't1' })).toBeUndefined();
    expect(await faults.list()).toEqual([]);
  });
  it('stream_cut ends the stream after N numbered messages', async () => {
    const faults = createFaultService({ repository: createFaultStore() });
    faults.add({ kind: 'stream_cut', afterMessages: 2, remaining: 1 });
    const res = await faultStep(faults).run(testContext(), async () =>
      streamReply({
        open(sink) {
          for (const id of [1, 2, 3]) sink.write(`id: ${id}\nevent: e\ndata: {}\n\n`);
          return () => {};
        },
      }),
    );
    const written: string[] = [];
    const ended = new Promise<void>((resolve) => {
      if ('raw' in res) res.raw.stream?.open({ write: (c) => written.push(c) > 0, end: resolve });
    });
    await ended;
    expect(written.map((c) => c.split('\n')[0])).toEqual(['id: 1', 'id: 2']);
  });
  it('stream_restart answers 503 on the stream route for downMs', async () => {
    const faults = createFaultService({ repository: createFaultStore() });
    faults.add({ kind: 'stream_restart', afterMessages: 1, downMs: 60_000, remaining: 1 });
    const mw = faultStep(faults).run;
    const res = await mw(testContext(), async () =>
      streamReply({ open: (sink) => (sink.write('id: 1\ndata: {}\n\n'), () => {}) }),
    );
    await new Promise<void>((resolve) => {
      if ('raw' in res) res.raw.stream?.open({ write: () => true, end: resolve });
    });
    expect(statusOf(await mw(testContext(), async () => okResponse()))).toBe(503);
    expect((await faults.list())[0]).toMatchObject({ kind: 'unavailable' });
  });
  it('cursor_expired only takes reconnects with a cursor and sends a stream.reset first', async () => {
    const faults = createFaultService({ repository: createFaultStore() });
    faults.add({ kind: 'cursor_expired', remaining: 1 });
    const mw = faultStep(faults, { feeds: { lastId: () => 7 } }).run;
    const stream: StreamSource = { open: (sink) => (sink.write('retry: 1\n\n'), () => {}) };
    const streamRoute = { path: '/api/public/v1/stream' };
    await mw(testContext({ route: streamRoute }), async () => streamReply(stream));
    await mw(testContext({ headers: { 'last-event-id': '3' } }), async () => okResponse());
    expect(await faults.list()).toHaveLength(1);
    const ctx = testContext({ route: streamRoute, headers: { 'last-event-id': '3' } });
    const res = await mw(ctx, async () => streamReply(stream));
    expect(ctx.req.headers['last-event-id']).toBeUndefined();
    const written: string[] = [];
    if ('raw' in res) res.raw.stream?.open({ write: (c) => written.push(c) > 0, end: () => {} });
    expect(written[0]).toContain('"reason":"cursor_expired","cursor":3,"oldestRetained":8,"lastId":7');
    expect(await faults.list()).toEqual([]);
  });
});

describe('faultStep: fault windows on the sandbox clock', () => {
  // A clock that stands still in real time: only an advance ends a window (no real timer could).
  const setup = () => {
    const clock = createClock(() => 1_000_000);
    const timeline = createTimeline(clock);
    const faults = createFaultService({ repository: createFaultStore(), now: clock.now });
    const mw = faultStep(faults, { timing: { now: clock.now, at: timeline.at } }).run;
    return { clock, faults, mw };
  };
  const settled = async <T>(p: Promise<T>) => {
    let done = false;
    void p.then(() => (done = true));
    for (let i = 0; i < 5; i++) await new Promise((resolve) => setImmediate(resolve));
    return done;
  };
  const streamReply = (stream: StreamSource) => raw({ status: 200, headers: {}, stream });
  const oneMessage: StreamSource = { open: (sink) => (sink.write('id: 1\ndata: {}\n\n'), () => {}) };

  it('holds a commit_then_fail timeout and adds latency until the clock reaches their end', async () => {
    const { clock, faults, mw } = setup();
    faults.add({ kind: 'commit_then_fail', failWith: 'timeout', holdMs: 10_000, remaining: 1 });
    const heldAnswer = mw(testContext(), async () => okResponse());
    expect(await settled(heldAnswer)).toBe(false); // committed, now held
    clock.advance(9_999);
    expect(await settled(heldAnswer)).toBe(false);
    clock.advance(1);
    expect(await settled(heldAnswer)).toBe(true);
    expect(await heldAnswer).toMatchObject({ raw: { abort: true } });
    faults.add({ kind: 'latency', latencyMs: 700, remaining: 1 });
    const slow = mw(testContext(), async () => okResponse());
    expect(await settled(slow)).toBe(false);
    clock.advance(700);
    expect(await settled(slow)).toBe(true);
  });

  it('ends a stream_stall when the clock passes stallMs, and a stream_restart 503 and a duration with it', async () => {
    const { clock, faults, mw } = setup();
    faults.add({ kind: 'stream_stall', afterMessages: 1, stallMs: 30_000, remaining: 1 });
    const stalled = await mw(testContext(), async () => streamReply(oneMessage));
    let ended = false;
    if ('raw' in stalled) stalled.raw.stream?.open({ write: () => true, end: () => (ended = true) });
    await settled(Promise.resolve());
    clock.advance(29_000);
    expect(ended).toBe(false);
    clock.advance(1_000);
    expect(ended).toBe(true);

    faults.add({ kind: 'stream_restart', afterMessages: 1, downMs: 2_000, remaining: 1 });
    const restarted = await mw(testContext(), async () => streamReply(oneMessage));
    if ('raw' in restarted) restarted.raw.stream?.open({ write: () => true, end: () => {} });
    await settled(Promise.resolve());
    expect((await faults.list()).map((f) => f.kind)).toEqual(['unavailable']);
    clock.advance(2_000);
    expect(await faults.list()).toEqual([]);

    faults.arm({ kind: 'internal', durationSeconds: 30 });
    await expect(mw(testContext(), async () => okResponse())).rejects.toMatchObject({ code: 'internal' });
    clock.advance(30_000);
    await expect(mw(testContext(), async () => okResponse())).resolves.toMatchObject({ status: 200 });
  });
});
