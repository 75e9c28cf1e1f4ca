/**
 * A memory repository behind promises, each answered a turn of the event loop later: what a
 * repository across the network answers. Service tests run their rules over both.
 * @example const repository = networkLike(createFaultStore());
 */
export function networkLike<R extends object>(inner: R): R {
  const later = <T>(v: T) => new Promise<T>((resolve) => setImmediate(() => resolve(v)));
  const wrapped = {} as Record<string, unknown>;
  for (const [name, fn] of Object.entries(inner) as [string, unknown][])
    wrapped[name] = typeof fn === 'function' ? (...args: unknown[]) => later(fn(...args)) : fn;
  return wrapped as R;
}
