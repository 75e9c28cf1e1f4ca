/**
 * A memory repository behind promises: every method answers on a later turn of the event loop, as a
 * repository across the network would. Services under test must keep their rules over it.
 * @example const repository = answeringLater(createTokenStore()); await service.issue(grant);
 */
export function answeringLater<R extends object>(inner: R): R {
  const later = <T>(v: T) => new Promise<T>((resolve) => setImmediate(() => resolve(v)));
  const wrapped: Record<string, unknown> = {};
  for (const [name, fn] of Object.entries(inner) as [string, unknown][])
    wrapped[name] =
      typeof fn === 'function'
        ? (...args: unknown[]) => later(undefined).then(() => (fn as (...a: unknown[]) => unknown)(...args))
        : fn;
  return wrapped as R;
}
