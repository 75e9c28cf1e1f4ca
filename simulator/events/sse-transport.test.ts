import { createServer, get, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { setImmediate as tick, setTimeout as sleep } from 'node:timers/promises';
import { createParser, type EventSourceMessage } from 'eventsource-parser';
import { http } from 'msw';
import { setupServer } from 'msw/node';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { toFetchResponse } from '../adapters/msw.ts';
import { writeNodeResponse } from '../adapters/node-http.ts';
import { stopStream } from '../core/stream-stop.ts';
import type { PlainResponse } from '../core/types.ts';
import { memoryFeeds as createFeedStore } from '../test-support/memory-streams.ts';
import { PUBLIC_FEED } from './feed.ts';

type FeedStore = ReturnType<typeof createFeedStore>;
import { createSseSource, type StreamEndReason } from './sse-source.ts';
import { parseCursor, SSE_HEADERS } from './sse.ts';

/** What a stream route will do: parse the cursor (header wins), answer with an SSE source. */
function streamResponse(feeds: FeedStore, headers: Headers, url: URL, ends: StreamEndReason[]): PlainResponse {
  const { cursor } = parseCursor(
    headers.get('last-event-id') ?? undefined,
    url.searchParams.get('cursor') ?? undefined,
  );
  return {
    status: 200,
    headers: { ...SSE_HEADERS },
    stream: createSseSource(feeds, PUBLIC_FEED, {
      ...(cursor !== undefined ? { cursor } : {}),
      maxLagMessages: 20,
      onEnd: (r) => ends.push(r),
    }),
  };
}

/** Reads SSE events from a fetch Response until `enough` says so. */
async function readUntil(res: Response, enough: (events: EventSourceMessage[]) => boolean) {
  const events: EventSourceMessage[] = [];
  let retry: number | undefined;
  const parser = createParser({ onEvent: (e) => events.push(e), onRetry: (r) => (retry = r) });
  const reader = res.body!.getReader();
  const decoder = new TextDecoder();
  while (!enough(events)) {
    const { value, done } = await reader.read();
    if (done) return { events, retry, reader, done: true };
    parser.feed(decoder.decode(value, { stream: true }));
  }
  return { events, retry, reader, done: false };
}

async function eventually(check: () => boolean) {
  for (let i = 0; i < 400 && !check(); i++) await sleep(5);
  expect(check()).toBe(true);
}

interface Runtime {
  name: string;
  url: string;
  feeds: FeedStore;
  ends: StreamEndReason[];
  stopAll(): void;
}

function suite(make: () => Promise<Runtime & { close(): Promise<void> }>) {
  let rt: Runtime & { close(): Promise<void> };
  beforeAll(async () => {
    rt = await make();
  });
  afterAll(() => rt.close());
  const publish = (n: number, size = 0) => {
    for (let i = 0; i < n; i++)
      rt.feeds.publish(PUBLIC_FEED, 'service.status', { n: rt.feeds.lastId(PUBLIC_FEED) + 1, pad: 'x'.repeat(size) });
  };

  it('resumes after ?cursor with no gap and no duplicate, then carries live messages', async () => {
    publish(5);
    const start = rt.feeds.lastId(PUBLIC_FEED);
    const res = await fetch(`${rt.url}?cursor=${start - 3}`);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toMatch(/^text\/event-stream/);
    const first = await readUntil(res, (e) => e.length >= 3);
    expect(first.retry).toBe(3000);
    publish(2);
    const ids = first.events.map((e) => Number(e.id));
    const { events } = await readUntilMore(first.reader, ids, start + 2);
    expect(events).toEqual([start - 2, start - 1, start, start + 1, start + 2]);
    await first.reader.cancel();
    await eventually(() => rt.feeds.subscriberCount(PUBLIC_FEED) === 0);
  });

  it('takes Last-Event-ID over ?cursor when both are sent', async () => {
    publish(3);
    const last = rt.feeds.lastId(PUBLIC_FEED);
    const res = await fetch(`${rt.url}?cursor=0`, { headers: { 'last-event-id': String(last - 1) } });
    const { events, reader } = await readUntil(res, (e) => e.length >= 1);
    expect(events.map((e) => Number(e.id))).toEqual([last]);
    await reader.cancel();
  });

  it('ends the stream cleanly when the server stops it (shutdown)', async () => {
    const res = await fetch(rt.url);
    const reading = readUntil(res, () => false);
    await eventually(() => rt.feeds.subscriberCount(PUBLIC_FEED) === 1);
    rt.stopAll();
    const result = await reading;
    expect(result.done).toBe(true);
    expect(rt.feeds.subscriberCount(PUBLIC_FEED)).toBe(0);
  });

  async function readUntilMore(reader: ReadableStreamDefaultReader<Uint8Array>, ids: number[], lastWanted: number) {
    const parser = createParser({ onEvent: (e) => ids.push(Number(e.id)) });
    const decoder = new TextDecoder();
    while (ids[ids.length - 1] !== lastWanted) {
      const { value, done } = await reader.read();
      if (done) break;
      parser.feed(decoder.decode(value, { stream: true }));
    }
    return { events: ids };
  }

  return () => rt;
}

describe('SSE over node:http', () => {
  const streams = new Set<{ stop(): void }>();
  const get_ = suite(async () => {
    const feeds = createFeedStore();
    const ends: StreamEndReason[] = [];
    const server: Server = createServer((req, res) => {
      const url = new URL(req.url ?? '/', 'http://127.0.0.1');
      const headers = new Headers(
        Object.entries(req.headers).flatMap(([k, v]) => (typeof v === 'string' ? [[k, v] as [string, string]] : [])),
      );
      writeNodeResponse(res, streamResponse(feeds, headers, url, ends), streams);
    });
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    const { port } = server.address() as AddressInfo;
    return {
      name: 'http',
      url: `http://127.0.0.1:${port}/stream`,
      feeds,
      ends,
      stopAll: () =>
        [...streams].forEach((s) => {
          s.stop();
        }),
      close: () => new Promise<void>((r) => (server.closeAllConnections(), server.close(() => r()))),
    };
  });

  it('disconnects a client that stops reading once it is too far behind, and frees its subscription', async () => {
    const rt = get_();
    const res = await new Promise<IncomingMessage>((resolve) => get(rt.url, resolve));
    res.pause();
    await eventually(() => rt.feeds.subscriberCount(PUBLIC_FEED) === 1);
    const before = rt.ends.length;
    let published = 0;
    while (rt.ends.length === before && published < 20_000) {
      rt.feeds.publish(PUBLIC_FEED, 'service.status', { pad: 'x'.repeat(16_384) });
      published++;
      if (published % 10 === 0) await tick();
    }
    expect(rt.ends.slice(before)).toEqual(['slow_consumer']);
    expect(rt.feeds.subscriberCount(PUBLIC_FEED)).toBe(0);
    res.destroy();
  });
});

// msw clones every mocked response (a tee) and reads it eagerly, so a reader's pace never reaches
// the source there: the slow-consumer bound is tested over node:http, where backpressure is real.
describe('SSE through MSW (ReadableStream body)', () => {
  const stops = new Set<() => void>();
  suite(async () => {
    const feeds = createFeedStore();
    const ends: StreamEndReason[] = [];
    const base = 'https://sse.sandbox.example/stream';
    const server = setupServer(
      http.get(base, ({ request }) => {
        const plain = streamResponse(feeds, request.headers, new URL(request.url), ends);
        const source = plain.stream!;
        // Track the stop function as the node server does, to simulate shutdown.
        plain.stream = {
          open(sink) {
            const stop = source.open(sink);
            const shutdown = () => {
              stopStream(stop);
              sink.end();
            };
            stops.add(shutdown);
            return () => {
              stops.delete(shutdown);
              stopStream(stop);
            };
          },
        };
        return toFetchResponse(plain);
      }),
    );
    server.listen({ onUnhandledFrame: 'error' });
    return {
      name: 'msw',
      url: base,
      feeds,
      ends,
      stopAll: () =>
        [...stops].forEach((s) => {
          s();
        }),
      close: async () => server.close(),
    };
  });
});
