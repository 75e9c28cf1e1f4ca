/**
 * A memory repository behind promises, as a repository across the network: every method runs on a later
 * turn of the event loop and answers with a promise, so a service under test can neither see a write
 * before it answered nor lean on an answer at once. Service tests run their rules over it and over the
 * plain memory repository. Fields that are not methods are passed on as they are.
 * @example const repository = networkLike(createTokenStore()); await createTokenService({ repository, clock }).issue(grant);
 */
export function networkLike<R extends object>(inner: R): R {
  const wrapped: Record<string, unknown> = {};
  for (const [name, member] of Object.entries(inner) as [string, unknown][])
    wrapped[name] =
      typeof member === 'function'
        ? (...args: unknown[]) =>
            new Promise((resolve) => setImmediate(resolve)).then(() =>
              (member as (...a: unknown[]) => unknown)(...args),
            )
        : member;
  return wrapped as R;
}
