import type { Timeline } from '../lib/timeline.ts';
import { andThen } from '../state/ports/maybe-promise.ts';
import type { ClientService } from './client-service.ts';
import type { AccessToken, TokenService } from './token-service.ts';

/** What a watch needs: the token service's watches, the sandbox timeline and the clients' expiry dates. */
export interface AccessWatchDeps {
  tokens: Pick<TokenService, 'watch'>;
  timeline: Timeline;
  clients: Pick<ClientService, 'get'>;
}

export type AccessEndReason = 'token_revoked' | 'token_expired' | 'access_expired';

/**
 * Calls `onEnd` once, when the access behind a token ends: the token is revoked (or its grant is), the
 * token expires, or the client's access expires, whichever comes first on the sandbox clock. A live
 * stream uses it to close when an API call with the same token would already get 401.
 * @example const stop = watchAccess(state, ctx.access.token, (reason) => source.end(reason)); // stop() when done
 */
export function watchAccess(
  deps: AccessWatchDeps,
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
  const armed = andThen(deps.clients.get(record.clientId), (client) => {
    const clientExpiry = Date.parse(client?.expiresAt ?? '');
    // Stopped meanwhile (a repository that answered later): nothing more to arm.
    if (!over && Number.isFinite(clientExpiry) && clientExpiry < record.expiresAt)
      stops.push(deps.timeline.at(clientExpiry, () => end('access_expired')));
  });
  // The token's own end still ends the stream should the client's date not be found.
  if (armed instanceof Promise) armed.catch(() => {});
  return stop;
}

/** What an ended access closes: an open stream (structurally the SSE source's ClosableStream). */
export interface AccessBound {
  close(reason: AccessEndReason, message: string): void;
}

/** The streams of one access token, closed together when the access ends. */
export interface AccessGroup {
  add(member: AccessBound): void;
  delete(member: AccessBound): void;
}

/**
 * One watch per access token however many streams use it: the token's streams join its group while
 * open, the group watches the token (revocation, expiry, the client's expiry) only while it has
 * members, and closes every member with the reason and `describe(reason)` when the access ends.
 * A stream then holds no watcher, timeline task or closure of its own.
 * @example const watch = createAccessWatch(state, (why) => `closed: ${why}`); source options: { watch: watch.group(ctx.access.token) }
 */
export function createAccessWatch(
  deps: AccessWatchDeps,
  describe: (reason: AccessEndReason) => string,
): { group(record: AccessToken): AccessGroup; size(): number } {
  const groups = new Map<AccessToken, Group>();
  class Group implements AccessGroup {
    readonly record: AccessToken;
    readonly members = new Set<AccessBound>();
    stop: (() => void) | undefined;
    constructor(record: AccessToken) {
      this.record = record;
    }
    add(member: AccessBound): void {
      // Registered on its first member (a group handed out but never joined leaves nothing behind);
      // a second group made for the same token meanwhile hands its members to the registered one.
      const live = groups.get(this.record) ?? this;
      if (live !== this) {
        live.add(member);
        return;
      }
      groups.set(this.record, this);
      this.members.add(member);
      this.stop ??= watchAccess(deps, this.record, (reason) => this.ended(reason));
    }
    delete(member: AccessBound): void {
      if (!this.members.delete(member)) {
        const live = groups.get(this.record);
        if (live && live !== this) live.delete(member);
        return;
      }
      if (this.members.size > 0) return;
      this.stop?.();
      this.stop = undefined;
      if (groups.get(this.record) === this) groups.delete(this.record);
    }
    ended(reason: AccessEndReason) {
      this.stop = undefined;
      if (groups.get(this.record) === this) groups.delete(this.record);
      const message = describe(reason);
      const all = [...this.members];
      this.members.clear();
      for (const m of all) {
        try {
          m.close(reason, message);
        } catch {
          // One failing stream must not keep the others open.
        }
      }
    }
  }
  return {
    group: (record) => groups.get(record) ?? new Group(record),
    size: () => groups.size,
  };
}
