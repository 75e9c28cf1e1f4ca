import { describe, expect, it } from 'vitest';
import { ApiError } from '../core/api-error.ts';
import { failure, writeReply } from '../core/envelope.ts';
import type { Reply } from '../core/reply.ts';
import { createClock } from '../lib/clock.ts';
import { createIdempotencyService } from '../services/idempotency-service.ts';
import { createIdempotencyStore } from '../state/idempotency-store.ts';
import { okResponse, testContext } from '../test-support/test-context.ts';
import { idempotencyStep } from './idempotency.ts';

describe('idempotencyStep', () => {
  const setup = () => {
    const store = createIdempotencyService({ repository: createIdempotencyStore(), clock: createClock(() => 0) });
    const mw = idempotencyStep(store).run;
    const ctx = (body: unknown, tenant = 't1') => {
      const c = testContext({ route: { idempotent: true, method: 'POST' }, body, tenant });
      c.idempotencyKey = 'key-12345678';
      return c;
    };
    return { store, mw, ctx };
  };
  const dataOf = (r: Reply) => ('data' in r ? r.data : undefined);

  it('runs the handler once and replays the data value with meta.replayed for equal content in any key order', async () => {
    const { mw, ctx } = setup();
    let calls = 0;
    const handler = async () => (calls++, okResponse({ id: 'c1' }));
    await mw(ctx({ a: 1, b: 2 }), handler);
    const second = ctx({ b: 2, a: 1 });
    const replay = await mw(second, handler);
    expect(calls).toBe(1);
    expect(dataOf(replay)).toEqual({ id: 'c1' });
    expect(second.replayed).toBe(true);
    const body = JSON.parse(writeReply(second, replay).body ?? '');
    expect(body.meta).toMatchObject({ replayed: true, idempotencyKey: 'key-12345678', requestId: 'req_test' });
  });

  it('conflicts on different content; other tenants are separate', async () => {
    const { mw, ctx } = setup();
    await mw(ctx({ a: 1 }), async () => okResponse());
    await expect(mw(ctx({ a: 2 }), async () => okResponse())).rejects.toMatchObject({ code: 'idempotency_conflict' });
    await expect(mw(ctx({ a: 2 }, 't2'), async () => okResponse())).resolves.toMatchObject({ status: 200 });
  });

  it('stores the operation 404/409 but not a 500, which stays retryable', async () => {
    const { mw, ctx } = setup();
    await expect(
      mw(ctx({ a: 1 }), async () => {
        throw new ApiError('internal');
      }),
    ).rejects.toMatchObject({ code: 'internal' });
    await expect(
      mw(ctx({ a: 1 }), async () => {
        throw new ApiError('capability_denied', { detail: 'x' });
      }),
    ).rejects.toMatchObject({ code: 'capability_denied' });
    const third = ctx({ a: 1 });
    const err = await mw(third, async () => okResponse()).then(
      () => undefined,
      (e: unknown) => e,
    );
    expect(err).toBeInstanceOf(ApiError);
    const res = failure(third, err as ApiError);
    expect(res.status).toBe(409);
    expect(JSON.parse(res.body ?? '')).toMatchObject({
      ok: false,
      error: { code: 'capability_denied', detail: 'x' },
      meta: { replayed: true },
    });
  });

  it('keeps nothing of raw answers: the key stays free', async () => {
    const { mw, ctx } = setup();
    let calls = 0;
    const rawAnswer = async () => (calls++, { raw: { status: 200, headers: {} } });
    await mw(ctx({ a: 1 }), rawAnswer);
    await mw(ctx({ a: 1 }), rawAnswer);
    expect(calls).toBe(2);
  });

  it('concurrent duplicates wait for the first and replay it', async () => {
    const { mw, ctx } = setup();
    let calls = 0;
    let release!: () => void;
    const gate = new Promise<void>((r) => (release = r));
    const handler = async () => {
      calls++;
      await gate;
      return okResponse();
    };
    const ctxs = [ctx({ a: 1 }), ctx({ a: 1 }), ctx({ a: 1 })];
    const all = Promise.all(ctxs.map((c) => mw(c, handler)));
    release();
    await all;
    expect(calls).toBe(1);
    expect(ctxs.filter((c) => c.replayed)).toHaveLength(2);
  });
});
