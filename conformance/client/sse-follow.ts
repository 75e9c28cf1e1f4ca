import type { SseEvent, SseSession } from './sse-stream.ts';

// A stream read the way the interface asks clients to read one: "After an interruption, the client resumes
// without gaps by sending Last-Event-ID or the query parameter cursor (last number read)". A deployment may
// end its streams after a second (an edge runtime's cap, a proxy's idle timeout): a check waiting three
// seconds for a message then reconnects, as any client would, instead of blaming the deployment for a message
// that came on the next connection.

/**
 * Pause before reconnecting (a client honouring a short `retry:`), and how many reconnects in a row one read
 * may make that bring nothing new (a stream ended after every two messages is followed as long as it moves on,
 * within the read's time and size bounds).
 */
export const RECONNECT_PAUSE_MS = 100;
export const MAX_RECONNECTS = 20;
/** A read that has this many messages, or this much text, is no wait for one more: it is not followed further. */
export const MAX_FOLLOWED_EVENTS = 10_000;
export const MAX_FOLLOWED_CHARS = 4 * 1024 * 1024;

/**
 * `first`, reconnected by `reopen` (with the last id read, or none when nothing was read yet) whenever it
 * ends before a read is done; events of every connection in order, the first connection's exchange as the
 * evidence. A reconnect that is not a stream (a 401, a 429) ends the following.
 * @example const s = followStream(await open(), (lastId) => open(lastId)); await s.readUntil((e) => e.length > 2, 3000);
 */
export function followStream(
  first: SseSession,
  reopen: (lastId: string | undefined) => Promise<SseSession>,
): SseSession {
  const earlier: SseEvent[] = [];
  let earlierChars = 0;
  let current = first;
  let stopped = false;
  const all = () => (earlier.length === 0 ? current.events : [...earlier, ...current.events]);
  const lastId = () => {
    const events = all();
    for (let i = events.length - 1; i >= 0; i--) if (events[i]?.id !== undefined) return events[i]?.id;
    return undefined;
  };

  async function readUntil(done: (events: readonly SseEvent[]) => boolean, timeoutMs: number) {
    const deadline = performance.now() + timeoutMs;
    let idle = 0;
    for (;;) {
      const seen = earlier.length;
      await current.readUntil(
        (events) => done(seen === 0 ? events : [...earlier, ...events]),
        deadline - performance.now(),
      );
      const left = deadline - performance.now();
      // Done, out of time, or stopped: what was read. Time left and not done: the connection ended, unless the
      // kit cut it (more than it reads: a stream followed again would read that much once more).
      if (stopped || current.ex.streamCappedAt !== undefined || done(all())) return all();
      // A connection that brought messages is progress; only reconnects in a row that bring none are counted.
      idle = current.events.length > 0 ? 0 : idle + 1;
      if (left <= RECONNECT_PAUSE_MS || idle >= MAX_RECONNECTS || all().length > MAX_FOLLOWED_EVENTS) return all();
      if (earlierChars + current.events.reduce((n, e) => n + e.data.length, 0) > MAX_FOLLOWED_CHARS) return all();
      // Straight on after a connection that brought messages (the stream is moving, cut by its length);
      // after one that brought none, the pause.
      if (idle > 0) await new Promise((resolve) => setTimeout(resolve, RECONNECT_PAUSE_MS));
      const next = await reopen(lastId()).catch(() => undefined);
      if (!next?.isStream) {
        await next?.close();
        return all();
      }
      // One by one: a connection may have sent many (spread as arguments, they overflow the stack).
      for (const e of current.events) {
        earlier.push(e);
        earlierChars += e.data.length;
      }
      await current.close();
      current = next;
    }
  }

  return {
    get ex() {
      return first.ex;
    },
    get isStream() {
      return first.isStream;
    },
    get events() {
      return all();
    },
    readUntil,
    async close() {
      stopped = true;
      await Promise.all([first.close(), current.close()]);
    },
  };
}
