import type { AccessToken } from '../core/context.ts';
import type { CallRecord } from './observation.ts';

/**
 * Calls are grouped per client id and tenant, but a client often runs as several processes at once (pods
 * of a deployment, a cron job beside a queue worker), each with its own token. The only trace of a
 * process the sandbox has is its token: two tokens of one client that are in use at the same time (each
 * first used before the other's last use) are two processes. One process renewing its token uses the
 * old one up to the renewal and the new one after it, so their uses do not overlap; a client fetching a
 * token per call uses each once. A fleet sharing one token (a token cache) is one process here.
 */
export interface TokenSpans {
  /** P and C were sent by two processes of the client running at the same time. */
  apart(p: CallRecord, c: CallRecord): boolean;
}

/**
 * The span of use of every token among `calls` (first and last arrival).
 * @example const spans = tokenSpans(calls); if (spans.apart(p, c)) ...
 */
export function tokenSpans(calls: readonly CallRecord[]): TokenSpans {
  const spans = new Map<AccessToken, { first: number; last: number }>();
  for (const c of calls) {
    if (!c.token) continue;
    const s = spans.get(c.token);
    if (!s) spans.set(c.token, { first: c.at, last: c.at });
    else {
      s.first = Math.min(s.first, c.at);
      s.last = Math.max(s.last, c.at);
    }
  }
  return {
    apart(p, c) {
      if (!p.token || !c.token || p.token === c.token) return false;
      const [sp, sc] = [spans.get(p.token), spans.get(c.token)];
      return sp !== undefined && sc !== undefined && sc.first < sp.last && sp.first < sc.last;
    },
  };
}
