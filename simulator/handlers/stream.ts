import { ApiError } from '../core/api-error.ts';
import { raw } from '../core/reply.ts';
import { PUBLIC_FEED, tenantFeed } from '../events/feed.ts';
import { createSseSource } from '../events/sse-source.ts';
import { CursorError, parseCursor, SSE_HEADERS } from '../events/sse.ts';
import type { AccessEndReason } from '../services/access-watch.ts';
import type { HandlerDeps, HandlerGroup } from './types.ts';

const CLOSED_BECAUSE: Record<AccessEndReason, string> = {
  token_revoked: 'The access token of this stream was revoked; reconnect with a new token.',
  token_expired: 'The access token of this stream expired; reconnect with a new token.',
  access_expired: 'The access behind this stream expired; it must be renewed before reconnecting.',
};

/** The message of a stream's final `stream.closed` when its access ended. @example streamClosedMessage('token_revoked') */
export const streamClosedMessage = (why: AccessEndReason): string => CLOSED_BECAUSE[why];

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
    // A tenant stream lives only as long as its access: revoked or expired, it closes (and a
    // reconnect with the same token gets the 401 any API call would). Streams of one token share a watch.
    const source = createSseSource(deps.feeds, feed, {
      cursor,
      ...deps.streamOptions,
      onEnd: release,
      ...(ctx.access ? { watch: deps.accessStreams(ctx.access.token) } : {}),
    });
    return raw({
      status: 200,
      headers: { ...SSE_HEADERS, 'x-request-id': ctx.requestId, ...ctx.responseHeaders },
      stream: source,
    });
  },
} satisfies HandlerGroup<Pick<HandlerDeps, 'feeds' | 'streams' | 'streamOptions' | 'accessStreams'>>;
