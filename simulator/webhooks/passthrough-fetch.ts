import { undiciFetch } from './undici-fetch.ts';

/**
 * Webhook deliveries from a sandbox that runs as MSW handlers: MSW intercepts every request of the
 * process, so each delivery carries MSW's passthrough marker (`accept: msw/passthrough`, what msw's
 * `bypass()` sets) and reaches the real receiver instead of the handlers.
 */
export const mswPassthroughFetch: typeof fetch = (input, init) => {
  const headers = new Headers(init?.headers);
  headers.append('accept', 'msw/passthrough');
  return undiciFetch(input, { ...init, headers });
};
