import type { RequestContext } from './context.ts';
import type { PlainResponse } from './types.ts';

export type Next = () => Promise<PlainResponse>;
/** A middleware step: look at the context, answer itself or call `next`. Factories build them once. */
export type Middleware = (ctx: RequestContext, next: Next) => Promise<PlainResponse>;
export type Terminal = (ctx: RequestContext) => Promise<PlainResponse>;

/** Chains middleware around a terminal handler, Koa style. */
export function compose(steps: readonly Middleware[], terminal: Terminal): Terminal {
  return (ctx) => {
    const run = (i: number): Promise<PlainResponse> => {
      const step = steps[i];
      return step ? step(ctx, () => run(i + 1)) : terminal(ctx);
    };
    return run(0);
  };
}
