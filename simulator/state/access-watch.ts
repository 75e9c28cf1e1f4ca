import type { ClientRegistry } from './clients.ts';
import type { Timeline } from '../lib/timeline.ts';
import type { AccessToken, TokenStore } from './token-store.ts';

export type AccessEndReason = 'token_revoked' | 'token_expired' | 'access_expired';

/**
 * Calls `onEnd` once, when the access behind a token ends: the token is revoked (or its grant is), the
 * token expires, or the client's access expires, whichever comes first on the sandbox clock. A live
 * stream uses it to close when an API call with the same token would already get 401.
 * @example const stop = watchAccess(state, ctx.access.token, (reason) => source.end(reason)); // stop() when done
 */
export function watchAccess(
  deps: { tokens: TokenStore; timeline: Timeline; clients: ClientRegistry },
  record: AccessToken,
  onEnd: (reason: AccessEndReason) => void,
): () => void {
  let over = false;
  const stops: (() => void)[] = [];
  const stop = () => {
    over = true;
    for (const s of stops) s();
  };
  const end = (reason: AccessEndReason) => {
    if (over) return;
    stop();
    onEnd(reason);
  };
  stops.push(deps.tokens.watch(record, () => end('token_revoked')));
  stops.push(deps.timeline.at(record.expiresAt, () => end('token_expired')));
  const clientExpiry = Date.parse(deps.clients.get(record.clientId)?.expiresAt ?? '');
  if (Number.isFinite(clientExpiry) && clientExpiry < record.expiresAt)
    stops.push(deps.timeline.at(clientExpiry, () => end('access_expired')));
  return stop;
}
