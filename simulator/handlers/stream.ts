import { ApiError } from '../core/api-error.ts';
import { PUBLIC_FEED, tenantFeed } from '../events/feed.ts';
import { createSseSource } from '../events/sse-source.ts';
import { CursorError, parseCursor, SSE_HEADERS } from '../events/sse.ts';
import type { HandlerDeps, HandlerGroup } from './types.ts';

export const streamHandlers: HandlerGroup<Pick<HandlerDeps, 'feeds' | 'streams' | 'streamOptions'>> = {
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
    const release = deps.streams.admit(feed);
    // The source ends exactly once however the stream stops (client gone, slow consumer, shutdown):
    // its place in the gate goes back then, with no wrapper around every write.
    const source = createSseSource(deps.feeds, feed, { cursor, ...deps.streamOptions, onEnd: release });
    return {
      status: 200,
      headers: { ...SSE_HEADERS, 'x-request-id': ctx.requestId, ...ctx.responseHeaders },
      stream: source,
    };
  },
};
