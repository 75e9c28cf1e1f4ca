import { describe, expect, it } from 'vitest';
import { testContext } from '../test-support/test-context.ts';
import { compose, type Middleware } from './pipeline.ts';
import { ok as okReply, type Reply } from './reply.ts';

const ok: Reply = okReply({});

describe('compose', () => {
  it('runs the steps in order around the terminal', async () => {
    const seen: string[] = [];
    const step =
      (name: string): Middleware =>
      async (_ctx, next) => {
        seen.push(`${name} in`);
        const res = await next();
        seen.push(`${name} out`);
        return res;
      };
    const run = compose([step('a'), step('b')], async () => {
      seen.push('handler');
      return ok;
    });
    expect(await run(testContext())).toBe(ok);
    expect(seen).toEqual(['a in', 'b in', 'handler', 'b out', 'a out']);
  });

  it('lets a step answer without calling next', async () => {
    let handled = 0;
    const run = compose([async () => okReply({}, 204)], async () => {
      handled++;
      return ok;
    });
    expect(await run(testContext())).toMatchObject({ status: 204 });
    expect(handled).toBe(0);
  });

  it('refuses a second next() from the same step, so the handler runs once', async () => {
    let handled = 0;
    const twice: Middleware = async (_ctx, next) => {
      await next();
      return next();
    };
    const run = compose([twice], async () => {
      handled++;
      return ok;
    });
    await expect(run(testContext())).rejects.toThrow('next() called multiple times');
    expect(handled).toBe(1);
  });

  it('guards each request on its own: the same chain serves the next request normally', async () => {
    const run = compose([async (_ctx, next) => next()], async () => ok);
    expect(await run(testContext())).toBe(ok);
    expect(await run(testContext())).toBe(ok);
  });

  it('turns a synchronous throw of a plain (non-async) step into a rejection, as an async step would', async () => {
    const seen: string[] = [];
    const refuse: Middleware = () => {
      throw new Error('refused');
    };
    const outer: Middleware = (_ctx, next) =>
      next().catch((err: Error) => {
        seen.push(`outer saw ${err.message}`);
        throw err;
      });
    const run = compose([outer, refuse], async () => ok);
    const answer = run(testContext());
    expect(answer).toBeInstanceOf(Promise);
    await expect(answer).rejects.toThrow('refused');
    expect(seen).toEqual(['outer saw refused']);
    // The first step itself throwing: still a rejected promise, never a throw out of run().
    const first = compose([refuse], async () => ok)(testContext());
    await expect(first).rejects.toThrow('refused');
  });
});
