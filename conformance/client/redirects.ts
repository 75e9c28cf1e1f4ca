import type { FetchLike, RequestInitLike, ResponseLike } from './client-types.ts';

/** How many same-origin redirects one request follows before the last 3xx is handed back as the answer. */
export const MAX_REDIRECTS = 5;

const REDIRECTS = new Set([301, 302, 303, 307, 308]);

/** Whether a request carries something secret: an Authorization header, or a body (a token form holds the secret). */
function carriesCredentials(init: RequestInitLike): boolean {
  return init.body !== undefined || Object.keys(init.headers).some((h) => h.toLowerCase() === 'authorization');
}

/**
 * Fetches with `redirect: 'manual'` and follows redirects by hand, so a deployment cannot send the kit's
 * secrets elsewhere: a redirect within the origin is followed (as fetch did before, 301/302/303 turning a POST
 * into a body-less GET), one to another origin is not followed when the request carries credentials (a body or
 * an Authorization header): the 3xx is handed back as the answer and `onRefused` names the origin. Requests
 * without credentials (a plain GET, its tenant header is no secret) still follow it.
 * @example const res = await fetchWithoutLeaks(fetch, url, { method: 'POST', headers, body }, (o) => notices.push(o));
 */
export async function fetchWithoutLeaks(
  doFetch: FetchLike,
  url: string,
  init: RequestInitLike,
  onRefused: (origin: string, location: string) => void = () => undefined,
): Promise<ResponseLike> {
  let current = url;
  let request: RequestInitLike = { ...init, redirect: 'manual' };
  for (let hop = 0; ; hop++) {
    const res = await doFetch(current, request);
    const location = res.headers.get('location');
    if (!REDIRECTS.has(res.status) || location === null || hop >= MAX_REDIRECTS) return res;
    let next: URL;
    try {
      next = new URL(location, current);
    } catch {
      return res;
    }
    if (next.origin !== new URL(current).origin && carriesCredentials(request)) {
      onRefused(next.origin, next.href);
      return res;
    }
    await res.body?.cancel().catch(() => undefined);
    const toGet = res.status === 303 || ((res.status === 301 || res.status === 302) && request.method === 'POST');
    if (toGet && request.method !== 'GET' && request.method !== 'HEAD') {
      const headers = Object.fromEntries(
        Object.entries(request.headers).filter(([h]) => !/^content-(type|length)$/i.test(h)),
      );
      const { body: _dropped, ...rest } = request;
      request = { ...rest, method: 'GET', headers };
    }
    current = next.href;
  }
}
