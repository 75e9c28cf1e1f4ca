/**
 * What a repository port answers: a value at once (the memory stores) or a promise (a store across the
 * network, such as Redis). Consumers continue with `andThen`, so the default memory path never waits a
 * turn of the event loop for a value it already has.
 */
export type MaybePromise<T> = T | Promise<T>;

/**
 * Continues with `next` on a MaybePromise: at once when it is a value, once it settles when it is a
 * promise. A throw in `next` is thrown on the value path and rejects the promise on the other.
 * @example andThen(repository.find(id), (found) => found?.connection.state) // 'active' at once from memory
 */
export function andThen<T, R>(value: MaybePromise<T>, next: (value: T) => MaybePromise<R>): MaybePromise<R> {
  return value instanceof Promise ? value.then(next) : next(value);
}

/**
 * Every answer of a list of MaybePromises: the values at once when none is a promise (the memory path
 * makes no promise), else one promise of them all, in order.
 * @example andThen(all([repo.count(), repo.list(t)] as const), ([n, rows]) => ({ n, rows }))
 */
export function all<T extends readonly unknown[]>(
  answers: { readonly [K in keyof T]: MaybePromise<T[K]> },
): MaybePromise<T> {
  for (const a of answers) if (a instanceof Promise) return Promise.all(answers) as Promise<unknown> as Promise<T>;
  return answers as unknown as T;
}
