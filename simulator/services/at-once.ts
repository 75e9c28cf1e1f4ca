import type { MaybePromise } from '../state/ports/maybe-promise.ts';

/**
 * The value of a MaybePromise that a synchronous API must answer at once (`Sandbox.issueToken`): every
 * adapter keeps tokens and clients in the process today, so their services answer at once; a repository
 * that answers later makes such a caller fail loudly, naming the asynchronous way.
 * @example const { token } = atOnce(state.tokens.issue(grant), 'issueToken');
 */
export function atOnce<T>(value: MaybePromise<T>, what: string): T {
  if (value instanceof Promise)
    throw new Error(
      `${what} answers at once only over in-process repositories; await state.tokens.issue(...) instead.`,
    );
  return value;
}
