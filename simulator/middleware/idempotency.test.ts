import { describe, expect, it } from 'vitest';
import { ApiError } from '../core/api-error.ts';
import { createClock } from '../lib/clock.ts';
import { createIdempotencyStore } from '../state/idempotency-store.ts';
import { idempotencyMiddleware } from './idempotency.ts';
import { okResponse, testContext } from './test-context.ts';

describe('idempotencyMiddleware', () => {
  const setup = () => {
    const store = createIdempotencyStore(createClock(() => 0));
    const mw = idempotencyMiddleware(store);
    const ctx = (body: unknown, tenant = 't1') => {
      const c = testContext({ route: { idempotent: true, method: 'POST' }, body, tenant });
      c.idempotencyKey = 'key-12345678';
      return c;
    };
    return { store, mw, ctx };
  };

  it('runs the handler once and replays with meta.replayed for equal content in any key order', async () => {
    const { mw, ctx } = setup();
    let calls = 0;
    const handler = async () => (calls++, okResponse('{"ok":true,"data":{"id":"c1"},"meta":{}}'));
    await mw(ctx({ a: 1, b: 2 }), handler);
    const replay = await mw(ctx({ b: 2, a: 1 }), handler);
    expect(calls).toBe(1);
    const body = JSON.parse(replay.body!);
    expect(body.data).toEqual({ id: 'c1' });
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
    const replay = await mw(ctx({ a: 1 }), async () => okResponse());
    expect(replay.status).toBe(409);
    expect(JSON.parse(replay.body!)).toMatchObject({
      ok: false,
      error: { code: 'capability_denied', detail: 'x' },
      meta: { replayed: true },
    });
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
    const all = Promise.all([mw(ctx({ a: 1 }), handler), mw(ctx({ a: 1 }), handler), mw(ctx({ a: 1 }), handler)]);
    release();
    const results = await all;
    expect(calls).toBe(1);
    expect(results.filter((r) => JSON.parse(r.body!).meta?.replayed)).toHaveLength(2);
  });
});
