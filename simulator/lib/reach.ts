/**
 * A fetch that reports a failed connection as "cannot reach <base>: <reason>" instead of undici's bare
 * "fetch failed", so every command says which address it could not reach and why.
 * @example const doFetch = reachingFetch(globalThis.fetch, 'http://127.0.0.1:4010');
 */
export function reachingFetch(doFetch: typeof fetch, base: string): typeof fetch {
  return async (input, init) => {
    try {
      return await doFetch(input, init);
    } catch (err) {
      throw new Error(cannotReach(base, err), { cause: err });
    }
  };
}

/** The one-line message for a connection that failed: the innermost cause is the useful reason. */
export function cannotReach(base: string, err: unknown): string {
  let reason: unknown = err;
  while (reason instanceof Error && reason.cause instanceof Error) reason = reason.cause;
  const text = reason instanceof Error ? reason.message || (reason as NodeJS.ErrnoException).code : String(reason);
  return `cannot reach ${base}: ${text}`;
}
