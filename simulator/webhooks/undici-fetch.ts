/**
 * The undici package's own fetch (MSW in the same process never intercepts it), loaded on the first
 * delivery: undici is ~110 modules and ~50 ms of start-up that most runs never need.
 * @example createDispatcher({ fetch: undiciFetch })
 */
export const undiciFetch: typeof fetch = async (input, init) => {
  const undici = await import('undici');
  return undici.fetch(input as string, init as never) as unknown as Response;
};
