import { STREAM_DEFAULTS } from '../contract/simulator-defaults.ts';
import type { StreamSink, StreamSource } from '../core/types.ts';
import type { FeedStore } from './feed.ts';
import {
  encodeSseComment,
  encodeSseControl,
  encodeSseMessage,
  encodeSseRetry,
  planResume,
  STREAM_RESET_EVENT,
} from './sse.ts';

export interface IntervalTimers {
  setInterval(fn: () => void, ms: number): unknown;
  clearInterval(handle: unknown): void;
}

export type StreamEndReason = 'stopped' | 'slow_consumer' | 'closed';

/** Name of the final control message of a stream closed by the server (e.g. its token was revoked). */
export const STREAM_CLOSED_EVENT = 'stream.closed';

export interface SseSourceOptions {
  /** Last message id the client read (from parseCursor); undefined = live messages only. */
  cursor?: number;
  retryMs?: number;
  heartbeatMs?: number;
  /** With a drain signal: a blocked client this many messages behind (or behind the retention window) is disconnected. */
  maxLagMessages?: number;
  /** Without a drain signal: this many refused writes in a row disconnect the client. */
  maxRefusedWrites?: number;
  timers?: IntervalTimers;
  /** Called once when the stream ends: stopped by the transport/shutdown, or disconnected as a slow consumer. */
  onEnd?: (reason: StreamEndReason) => void;
  /**
   * Watches for a reason to close the stream (the access behind its token ended): calling `close`
   * sends a final `stream.closed` message with the reason and ends the stream. Returns a function
   * that stops watching.
   */
  until?: (close: (reason: string, message: string) => void) => () => void;
}

const realTimers: IntervalTimers = {
  setInterval: (fn, ms) => setInterval(fn, ms).unref(),
  clearInterval: (h) => clearInterval(h as ReturnType<typeof setInterval>),
};

/**
 * A feed as Server-Sent Events: `retry:` first, a `stream.reset` when the cursor cannot be honoured,
 * then every message after the cursor (retained, then live) exactly once, `: heartbeat` comments
 * in between. The stream keeps only its position (the last id written), never a copy of messages:
 * it reads the feed's ring buffer whenever the client can take more, so a slow client costs nothing
 * until it falls too far behind and is disconnected (it resumes with Last-Event-ID).
 * @example return { status: 200, headers: { ...SSE_HEADERS }, stream: createSseSource(feeds, PUBLIC_FEED, { cursor }) };
 */
export function createSseSource(feeds: FeedStore, key: string, opts: SseSourceOptions = {}): StreamSource {
  const retryMs = opts.retryMs ?? STREAM_DEFAULTS.retryMs;
  const heartbeatMs = opts.heartbeatMs ?? STREAM_DEFAULTS.heartbeatMs;
  const maxLag = opts.maxLagMessages ?? STREAM_DEFAULTS.maxLagMessages;
  const maxRefused = opts.maxRefusedWrites ?? STREAM_DEFAULTS.maxRefusedWrites;
  const timers = opts.timers ?? realTimers;
  return {
    open(sink: StreamSink) {
      const drainable = typeof sink.onDrain === 'function';
      let ended = false;
      let blocked = false;
      let refused = 0;
      const plan = planResume(feeds, key, opts.cursor);
      let last = plan.after;
      let unsubscribe = () => {};
      let heartbeat: unknown;
      let unwatch = () => {};

      const finish = (reason: StreamEndReason) => {
        if (ended) return;
        ended = true;
        unsubscribe();
        unwatch();
        if (heartbeat !== undefined) timers.clearInterval(heartbeat);
        if (reason !== 'stopped') sink.end();
        opts.onEnd?.(reason);
      };
      /** Writes one chunk; false when the stream must pause (or has ended). */
      const write = (chunk: string): boolean => {
        if (sink.write(chunk)) {
          refused = 0;
          return true;
        }
        if (drainable) {
          blocked = true;
          return false;
        }
        // No drain signal: the transport buffers, we count and give up past the bound.
        if (++refused > maxRefused) finish('slow_consumer');
        return !ended;
      };
      const pump = () => {
        while (!ended && !blocked) {
          if (last + 1 < feeds.oldestRetained(key)) return finish('slow_consumer');
          const next = feeds.get(key, last + 1);
          if (!next) return;
          last = next.id;
          if (!write(encodeSseMessage(next))) return;
        }
      };

      unsubscribe = feeds.subscribe(key, (m) => {
        if (ended) return;
        if (blocked) {
          if (m.id - last > maxLag || last + 1 < feeds.oldestRetained(key)) finish('slow_consumer');
          return;
        }
        pump();
      });
      sink.onDrain?.(() => {
        blocked = false;
        pump();
      });
      heartbeat = timers.setInterval(() => {
        if (!ended && !blocked) write(encodeSseComment('heartbeat'));
      }, heartbeatMs);

      if (opts.until)
        unwatch = opts.until((reason, message) => {
          if (ended) return;
          sink.write(encodeSseControl(STREAM_CLOSED_EVENT, { reason, message }));
          finish('closed');
        });
      if (write(encodeSseRetry(retryMs)) && plan.reset) write(encodeSseControl(STREAM_RESET_EVENT, plan.reset));
      pump();
      return () => finish('stopped');
    },
  };
}
