import { STREAM_DEFAULTS } from '../contract/simulator-defaults.ts';
import type { StreamSink, StreamSource, StreamStop } from '../core/types.ts';
import type { FeedMessage, FeedService, FeedSubscriber, StreamReset } from './feed.ts';
import { joinHeartbeat, leaveHeartbeat, realTimers, type HeartbeatMember, type IntervalTimers } from './heartbeat.ts';
import { encodeSseControl, encodeSseMessage, encodeSseRetry, HEARTBEAT_FRAME, STREAM_RESET_EVENT } from './sse.ts';

export type { IntervalTimers } from './heartbeat.ts';

export type StreamEndReason = 'stopped' | 'slow_consumer' | 'closed';

/** Name of the final control message of a stream closed by the server (e.g. its token was revoked). */
export const STREAM_CLOSED_EVENT = 'stream.closed';

/** A live stream the server can close with a reason (a final `stream.closed` message, then the end). */
export interface ClosableStream {
  close(reason: string, message: string): void;
}

/**
 * Something many streams share that may close them all (every stream of one access token): streams
 * join it while open and leave when they end, so a stream holds no watcher of its own.
 */
export interface StreamWatch {
  add(stream: ClosableStream): void;
  delete(stream: ClosableStream): void;
}

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
  /** A shared watch that may close the stream (see StreamWatch); the stream joins it while open. */
  watch?: StreamWatch;
  /**
   * Watches for a reason to close the stream (the access behind its token ended): calling `close`
   * sends a final `stream.closed` message with the reason and ends the stream. Returns a function
   * that stops watching. (A closure per stream: prefer `watch` where many streams share the reason.)
   */
  until?: (close: (reason: string, message: string) => void) => () => void;
}

/**
 * One open stream: its position and state in fields, its reactions as methods, so a subscriber costs
 * one object (plus the transport's) rather than a closure and context per reaction. It is the feed's
 * subscriber, a member of the shared heartbeat and of the watch that may close it.
 */
class SseStream implements FeedSubscriber, HeartbeatMember, ClosableStream {
  private readonly feeds: FeedService;
  private readonly key: string;
  private readonly sink: StreamSink;
  private last: number;
  private readonly maxLag: number;
  private readonly maxRefused: number;
  private readonly timers: IntervalTimers;
  private readonly heartbeatMs: number;
  private readonly onEnd: ((reason: StreamEndReason) => void) | undefined;
  private readonly watch: StreamWatch | undefined;
  private ended = false;
  private blocked = false;
  /** Waiting for the feed's answer (a repository across the network): the pump goes on when it comes. */
  private reading = false;
  private refused = 0;
  private unwatch: (() => void) | undefined;

  constructor(feeds: FeedService, key: string, sink: StreamSink, after: number, opts: SseSourceOptions) {
    this.feeds = feeds;
    this.key = key;
    this.sink = sink;
    this.last = after;
    this.maxLag = opts.maxLagMessages ?? STREAM_DEFAULTS.maxLagMessages;
    this.maxRefused = opts.maxRefusedWrites ?? STREAM_DEFAULTS.maxRefusedWrites;
    this.timers = opts.timers ?? realTimers;
    this.heartbeatMs = opts.heartbeatMs ?? STREAM_DEFAULTS.heartbeatMs;
    this.onEnd = opts.onEnd;
    this.watch = opts.watch;
  }

  start(retryMs: number, reset: object | undefined, until: SseSourceOptions['until']): void {
    this.feeds.attach(this.key, this);
    joinHeartbeat(this.timers, this.heartbeatMs, this);
    this.watch?.add(this);
    if (until) this.unwatch = until((reason, message) => this.close(reason, message));
    if (this.write(encodeSseRetry(retryMs)) && reset) this.write(encodeSseControl(STREAM_RESET_EVENT, reset));
    this.pump();
  }

  /** Writes one chunk; false when the stream must pause (or has ended). */
  private write(chunk: string): boolean {
    if (this.sink.write(chunk)) {
      this.refused = 0;
      return true;
    }
    if (this.sink.onDrain) {
      this.blocked = true;
      return false;
    }
    // No drain signal: the transport buffers, we count and give up past the bound.
    if (++this.refused > this.maxRefused) this.finish('slow_consumer');
    return !this.ended;
  }

  private pump(): void {
    while (!this.ended && !this.blocked && !this.reading) {
      const next = this.feeds.next(this.key, this.last);
      if (next instanceof Promise) {
        // Only a repository across the network gets here: one continuation per read it waits for.
        this.reading = true;
        next.then(
          (m) => {
            this.reading = false;
            if (this.take(m)) this.pump();
          },
          () => this.finish('closed'),
        );
        return;
      }
      if (!this.take(next)) return;
    }
  }

  /** Writes the feed's next message; false when there is none yet or the stream cannot go on. */
  private take(next: FeedMessage | null | undefined): boolean {
    if (this.ended || this.blocked || next === undefined) return false;
    if (next === null) {
      // Fallen out of the retention window: going on would leave a gap (the client resumes).
      this.finish('slow_consumer');
      return false;
    }
    this.last = next.id;
    return this.write(encodeSseMessage(next));
  }

  /** A message was published on the feed. */
  deliver(m: FeedMessage): void {
    if (this.ended) return;
    if (this.blocked) {
      // Further behind than allowed, or than the feed retains (its window ends at m.id): no read needed.
      if (m.id - this.last > this.maxLag || m.id - this.last > this.feeds.retention) this.finish('slow_consumer');
      return;
    }
    this.pump();
  }

  /** The client took what was buffered. */
  drained(): void {
    this.blocked = false;
    this.pump();
  }

  heartbeat(): void {
    if (!this.ended && !this.blocked) this.write(HEARTBEAT_FRAME);
  }

  close(reason: string, message: string): void {
    if (this.ended) return;
    this.sink.write(encodeSseControl(STREAM_CLOSED_EVENT, { reason, message }));
    this.finish('closed');
  }

  /** The transport stopped the stream (client gone, shutdown): the stream is its own stop handle. */
  stop(): void {
    this.finish('stopped');
  }

  finish(reason: StreamEndReason): void {
    if (this.ended) return;
    this.ended = true;
    this.feeds.detach(this.key, this);
    leaveHeartbeat(this.timers, this.heartbeatMs, this);
    this.watch?.delete(this);
    this.unwatch?.();
    if (reason !== 'stopped') this.sink.end();
    this.onEnd?.(reason);
  }
}

/**
 * A feed as Server-Sent Events: `retry:` first, a `stream.reset` when the cursor cannot be honoured,
 * then every message after the cursor (retained, then live) exactly once, `: heartbeat` comments
 * in between (one shared timer per interval beats for every open stream). The stream keeps only its
 * position (the last id written), never a copy of messages: it reads the feed's ring buffer whenever
 * the client can take more, so a slow client costs nothing until it falls too far behind and is
 * disconnected (it resumes with Last-Event-ID).
 * @example return { status: 200, headers: { ...SSE_HEADERS }, stream: createSseSource(feeds, PUBLIC_FEED, { cursor }) };
 */
export function createSseSource(feeds: FeedService, key: string, opts: SseSourceOptions = {}): StreamSource {
  return { open: (sink: StreamSink) => openSseStream(feeds, key, opts, sink) };
}

// Outside createSseSource on purpose: the two closures a stream keeps capture only `stream`, not the
// request's options and source (a closure keeps its whole chain of enclosing contexts alive).
function openSseStream(feeds: FeedService, key: string, opts: SseSourceOptions, sink: StreamSink): StreamStop {
  const plan = feeds.resume(key, opts.cursor);
  if (!(plan instanceof Promise)) return startSseStream(feeds, key, opts, sink, plan);
  // A repository across the network: the stream starts once its position is known, unless stopped first.
  let stop: SseStream | undefined;
  let stopped = false;
  plan.then(
    (p) => {
      if (!stopped) stop = startSseStream(feeds, key, opts, sink, p);
    },
    () => {
      if (stopped) return;
      stopped = true;
      sink.end();
      opts.onEnd?.('closed');
    },
  );
  return () => {
    if (stopped) return;
    stopped = true;
    // Not started yet: the stream's end is told here, as a started stream's finish would.
    if (stop) stop.stop();
    else opts.onEnd?.('stopped');
  };
}

function startSseStream(
  feeds: FeedService,
  key: string,
  opts: SseSourceOptions,
  sink: StreamSink,
  plan: { after: number; reset?: StreamReset },
): SseStream {
  // The stream itself is the drain target and the stop handle: no closure per open stream.
  const stream = new SseStream(feeds, key, sink, plan.after, opts);
  sink.onDrain?.(stream);
  stream.start(opts.retryMs ?? STREAM_DEFAULTS.retryMs, plan.reset, opts.until);
  return stream;
}
