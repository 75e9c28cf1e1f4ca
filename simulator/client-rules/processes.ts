import type { AccessToken } from '../core/context.ts';
import type { CallRecord, StreamRecord } from './observation.ts';

/**
 * Calls are grouped per client id and tenant, but a client often runs as several processes at once (pods
 * of a deployment, a cron job beside a queue worker, a dashboard beside an exporter reading the stream),
 * each with its own token. The only trace of a process the sandbox has is its token: two tokens of one
 * client that are in use at the same time (each first used before the other's last use) are two
 * processes. One process renewing its token uses the old one up to the renewal and the new one after it,
 * so their uses do not overlap; a client fetching a token per call uses each once. A fleet sharing one
 * token (a token cache) is one process here.
 */
export interface TokenSpans {
  /** P and C were sent by two processes of the client running at the same time. */
  apart(p: { token?: AccessToken | undefined }, c: { token?: AccessToken | undefined }): boolean;
}

/**
 * The span of use of every token among `calls` and `streams` (first and last arrival).
 * @example const spans = tokenSpans(calls, streams); if (spans.apart(p, c)) ...
 */
export function tokenSpans(calls: readonly CallRecord[], streams: readonly StreamRecord[] = []): TokenSpans {
  const spans = new Map<AccessToken, { first: number; last: number }>();
  const use = (token: AccessToken | undefined, first: number, last: number) => {
    if (!token) return;
    const s = spans.get(token);
    if (!s) spans.set(token, { first, last });
    else {
      s.first = Math.min(s.first, first);
      s.last = Math.max(s.last, last);
    }
  };
  for (const c of calls) use(c.token, c.at, c.at);
  // A stream uses its token when it is opened: one held open past its token's renewal (closed at the old
  // token's expiry, resumed with the new one) is still one process.
  for (const s of streams) use(s.token, s.at, s.at);
  return {
    apart(p, c) {
      if (!p.token || !c.token || p.token === c.token) return false;
      const [sp, sc] = [spans.get(p.token), spans.get(c.token)];
      return sp !== undefined && sc !== undefined && sc.first < sp.last && sp.first < sc.last;
    },
  };
}
