// The kit's fetch in the in-process e2e targets: forwardFetch (the undici package's fetch on the wire,
// without its WHATWG streams) with the body reader the kit's client reads through.
import type { Readable } from 'node:stream';
import type { Dispatcher } from 'undici';
import type { FetchLike, ResponseLike } from '../client/http-client.ts';
import { forwardFetch } from './forward-fetch.ts';

/**
 * A web-stream reader over a Node stream, as the kit reads a fetch body: chunks, then done; cancel
 * ends the request (a read waiting then gives done); a broken stream fails as fetch's "terminated".
 */
function readerBody(stream: Readable): NonNullable<ResponseLike['body']> {
  let cancelled = false;
  // A body cancelled unread (a redirect the kit follows by hand) ends in undici's abort error: a read waiting
  // still gets it, the process does not (no listener would leave it uncaught).
  stream.on('error', () => undefined);
  const chunks = stream[Symbol.asyncIterator]();
  const cancel = async () => {
    cancelled = true;
    stream.destroy();
  };
  return {
    cancel,
    getReader: () => ({
      async read() {
        if (cancelled) return { done: true };
        try {
          const next = await chunks.next();
          return next.done ? { done: true } : { done: false, value: next.value as Uint8Array };
        } catch (err) {
          if (cancelled) return { done: true };
          throw new TypeError('terminated', { cause: err });
        }
      },
      cancel,
    }),
  };
}

/**
 * FetchLike for the kit's client over `dispatcher`, sending and reading what the undici package's fetch
 * does (a redirect or an unknown content coding fails loudly instead of being answered differently).
 * @example const kit = { baseUrl, fetch: kitFetch(new Agent()) };
 */
export function kitFetch(dispatcher: Dispatcher): FetchLike {
  return async (url, init) => {
    const res = await forwardFetch(url, {
      method: init.method,
      headers: init.headers,
      ...(init.body !== undefined ? { body: init.body } : {}),
      ...(init.signal ? { signal: init.signal } : {}),
      // The kit follows redirects by hand (redirects.ts): a 3xx it asked to see is handed back.
      ...(init.redirect === 'manual' ? { redirect: 'manual' as const } : {}),
      dispatcher,
      userAgent: 'undici',
    });
    return { status: res.status, headers: res.headers, text: res.text, body: res.body ? readerBody(res.body) : null };
  };
}
