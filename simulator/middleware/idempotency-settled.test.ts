import { describe, expect, it } from 'vitest';
import { ApiError } from '../core/api-error.ts';
import type { RequestContext } from '../core/context.ts';
import type { Reply } from '../core/reply.ts';
import { createClock } from '../lib/clock.ts';
import { createIdempotencyService } from '../services/idempotency-service.ts';
import { createIdempotencyStore } from '../state/idempotency-store.ts';
import type { IdempotencyRecord } from '../state/ports/idempotency.ts';
import { okResponse, testContext } from '../test-support/test-context.ts';
import { idempotencyStep, settledWithWrites } from './idempotency.ts';

// With a data dir the handler of an idempotent route keeps its key's outcome in the unit of its own
// writes (one SQLite transaction), so a kill -9 keeps both or neither (app/commit-together.test.ts).
describe('settledWithWrites', () => {
  const setup = () => {
    const repository = createIdempotencyStore();
    let inUnit = false;
    const kept: { outcome: IdempotencyRecord['outcome']; inUnit: boolean }[] = [];
    const update = repository.update;
    repository.update = (r) => {
      kept.push({ outcome: r.outcome, inUnit });
      return update(r);
    };
    const store = createIdempotencyService({ repository, clock: createClock(() => 0) });
    const units: string[] = [];
    const together = <T>(writes: () => T): T => {
      inUnit = true;
      try {
        const result = writes();
        units.push('committed');
        return result;
      } finally {
        inUnit = false;
      }
    };
    const step = idempotencyStep(store, { handlerSettles: true }).run;
    const ctx = (body: unknown = { a: 1 }) => {
      const c = testContext({ route: { idempotent: true, method: 'POST' }, body, tenant: 't1' });
      c.idempotencyKey = 'key-12345678';
      return c;
    };
    // As the front door calls the handler: inside `next`, its answer (or throw) made a promise.
    const call = (c: RequestContext, handler: (ctx: RequestContext) => Reply | Promise<Reply>) => {
      const h = settledWithWrites(handler, together);
      return step(c as never, () => {
        try {
          return Promise.resolve(h(c));
        } catch (err) {
          return Promise.reject(err);
        }
      });
    };
    return { kept, units, call, ctx };
  };

  it('keeps the outcome inside the unit of the handler, once, and replays it', async () => {
    const { kept, units, call, ctx } = setup();
    let runs = 0;
    const handler = () => {
      runs++;
      return okResponse({ id: 'c1' });
    };
    await call(ctx(), handler);
    expect(units).toEqual(['committed']);
    expect(kept).toEqual([{ outcome: { status: 200, ok: true, data: { id: 'c1' } }, inUnit: true }]);
    const again = ctx();
    await expect(call(again, handler)).resolves.toMatchObject({ data: { id: 'c1' } });
    expect(again.replayed).toBe(true);
    expect(runs).toBe(1);
  });

  it('keeps a failure of the operation inside the unit and throws it after the commit', async () => {
    const { kept, units, call, ctx } = setup();
    const denied = () => {
      throw new ApiError('capability_denied', { detail: 'x' });
    };
    await expect(call(ctx(), denied)).rejects.toMatchObject({ code: 'capability_denied' });
    expect(units).toEqual(['committed']);
    expect(kept).toMatchObject([{ outcome: { ok: false, status: 409 }, inUnit: true }]);
    await expect(call(ctx(), () => okResponse())).rejects.toMatchObject({ code: 'capability_denied' });
  });

  it('frees the key of a 500 inside the unit: the retry runs again', async () => {
    const { call, ctx } = setup();
    const broken = () => {
      throw new Error('boom');
    };
    await expect(call(ctx(), broken)).rejects.toThrow('boom');
    await expect(call(ctx(), () => okResponse({ id: 'c2' }))).resolves.toMatchObject({ data: { id: 'c2' } });
  });

  it('leaves a handler that answers a promise to the step, which keeps its outcome when it ends', async () => {
    const { kept, call, ctx } = setup();
    await call(ctx(), async () => okResponse({ id: 'c3' }));
    expect(kept).toEqual([{ outcome: { status: 200, ok: true, data: { id: 'c3' } }, inUnit: false }]);
  });

  it('runs a handler reached without the step as it is, outside any unit', async () => {
    const { units } = setup();
    const h = settledWithWrites(
      () => okResponse(),
      () => {
        throw new Error('no unit expected');
      },
    );
    expect(h(testContext())).toMatchObject({ status: 200 });
    expect(units).toEqual([]);
  });
});
