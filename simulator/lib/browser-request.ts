/**
 * Whether a request's headers say a browser sent it: an Origin header (a browser's cross-origin or
 * modifying request), or Fetch Metadata only a browser sends (Sec-Fetch-Site or Sec-Fetch-Dest, or a
 * navigation). Not Sec-Fetch-Mode alone: Node's and Deno's fetch send `sec-fetch-mode: cors` from servers too.
 * @example fromBrowser({ 'sec-fetch-site': 'same-origin' }) // true; fromBrowser({ 'sec-fetch-mode': 'cors' }) // false
 */
export function fromBrowser(h: Record<string, string | undefined>): boolean {
  return h.origin !== undefined || browserFetchMetadata(h);
}

/** The Fetch Metadata part of `fromBrowser` (a request without Origin: a same-origin GET, a navigation). */
export function browserFetchMetadata(h: Record<string, string | undefined>): boolean {
  return h['sec-fetch-site'] !== undefined || h['sec-fetch-dest'] !== undefined || h['sec-fetch-mode'] === 'navigate';
}
