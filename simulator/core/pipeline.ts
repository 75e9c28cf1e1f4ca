import type { RequestContext } from './context.ts';
import type { Reply } from './reply.ts';

export type Next = () => Promise<Reply>;
/** A middleware step: look at the context, answer itself or call `next`. Factories build them once. */
export type Middleware = (ctx: RequestContext, next: Next) => Promise<Reply>;
export type Terminal = (ctx: RequestContext) => Promise<Reply>;

/**
 * Chains middleware around a terminal handler, Koa style. A request allocates one dispatcher and the
 * `next` of each step it reaches. A step that calls `next` twice would run the rest of the chain (and
 * the handler's writes) twice: that call rejects instead, as in Hono and Koa.
 * A step need not be an `async` function: one that only checks and passes on can be a plain function
 * returning `next()` (an `async` one costs a promise and two extra microtask turns on every request);
 * what it throws synchronously becomes the rejection of its `next()` here, as if it were async.
 * @example const run = compose([versionStep()], async () => ok({})); writeReply(ctx, await run(ctx));
 */
export function compose(steps: readonly Middleware[], terminal: Terminal): Terminal {
  return (ctx) => {
    // The furthest step reached: a `next` that leads back to it or before was called before.
    let reached = -1;
    const dispatch = (i: number): Promise<Reply> => {
      if (i <= reached) return Promise.reject(new Error('next() called multiple times'));
      reached = i;
      const step = steps[i];
      try {
        return step ? step(ctx, () => dispatch(i + 1)) : terminal(ctx);
      } catch (err) {
        return Promise.reject(err);
      }
    };
    return dispatch(0);
  };
}
