import { ApiError } from '../core/api-error.ts';
import { raw } from '../core/reply.ts';
import { PUBLIC_FEED, tenantFeed } from '../events/feed.ts';
import { createSseSource } from '../events/sse-source.ts';
import { CursorError, parseCursor, SSE_HEADERS } from '../events/sse.ts';
import type { AccessEndReason } from '../state/access-watch.ts';
import type { HandlerDeps, HandlerGroup } from './types.ts';

const CLOSED_BECAUSE: Record<AccessEndReason, string> = {
  token_revoked: 'The access token of this stream was revoked; reconnect with a new token.',
  token_expired: 'The access token of this stream expired; reconnect with a new token.',
  access_expired: 'The access behind this stream expired; it must be renewed before reconnecting.',
};

export const streamHandlers = {
  /** Without credentials the public status feed; with a token and tenant header that tenant's own feed. */
  streamStatus(ctx, deps) {
    let cursor: number | undefined;
    try {
      cursor = parseCursor(ctx.req.headers['last-event-id'], ctx.req.query.cursor).cursor;
    } catch (err) {
      if (err instanceof CursorError)
        throw new ApiError('invalid_request', {
          detail: err.message,
          hint: 'Send the last message number read: a whole number >= 0.',
        });
      throw err;
    }
    const feed = ctx.access ? tenantFeed(ctx.access.tenant) : PUBLIC_FEED;
    const release = deps.streams.admit(feed, ctx.access ? undefined : ctx.req.clientAddress);
    // The source ends exactly once however the stream stops (client gone, slow consumer, shutdown):
    // its place in the gate goes back then, with no wrapper around every write.
    const access = ctx.access;
    // A tenant stream lives only as long as its access: revoked or expired, it closes (and a
    // reconnect with the same token gets the 401 any API call would).
    const until = access
      ? (close: (reason: string, message: string) => void) =>
          deps.watchAccess(access.token, (why) => close(why, CLOSED_BECAUSE[why]))
      : undefined;
    const source = createSseSource(deps.feeds, feed, {
      cursor,
      ...deps.streamOptions,
      onEnd: release,
      ...(until ? { until } : {}),
    });
    return raw({
      status: 200,
      headers: { ...SSE_HEADERS, 'x-request-id': ctx.requestId, ...ctx.responseHeaders },
      stream: source,
    });
  },
} satisfies HandlerGroup<Pick<HandlerDeps, 'feeds' | 'streams' | 'streamOptions' | 'watchAccess'>>;
