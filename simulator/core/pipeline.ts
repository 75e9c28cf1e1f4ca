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
      return step ? step(ctx, () => dispatch(i + 1)) : terminal(ctx);
    };
    return dispatch(0);
  };
}
