import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { http } from 'msw';
import { setupServer } from 'msw/node';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createKitClient, type FetchLike } from './http-client.ts';
import { sseSession } from './sse-stream.ts';

type Route = (req: IncomingMessage, res: ServerResponse) => void;
const routes: Record<string, Route> = {};
const server = createServer((req, res) => (routes[req.url ?? ''] ?? ((_, r) => r.writeHead(404).end()))(req, res));
let base = '';
const closedByClient: string[] = [];

beforeAll(async () => {
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(async () => {
  server.closeAllConnections();
  await new Promise((resolve) => server.close(resolve));
});

/** A stream that sends `first` at once and `later` after `delayMs`, then stays open; notes when the client goes. */
function streaming(name: string, first: string, later = '', delayMs = 0): Route {
  return (req, res) => {
    res.writeHead(200, { 'content-type': 'text/event-stream' });
    res.write(first);
    const timer = later ? setTimeout(() => res.write(later), delayMs) : undefined;
    req.socket.on('close', () => {
      clearTimeout(timer);
      closedByClient.push(name);
    });
  };
}

describe('event streams over the kit client (undici over loopback)', () => {
  it('stops reading a stream that sends more than maxStreamBytes, and counts it', async () => {
    routes['/flood'] = (req, res) => {
      res.writeHead(200, { 'content-type': 'text/event-stream' });
      const chunk = `data: ${'z'.repeat(8 * 1024)}\n\n`;
      const pump = () => {
        while (res.write(chunk));
        res.once('drain', pump);
      };
      req.socket.on('close', () => res.removeAllListeners('drain'));
      pump();
    };
    const client = createKitClient({ maxStreamBytes: 64 * 1024 });
    const session = await client.openStream({ method: 'GET', url: `${base}/flood` });
    const events = await session.readUntil(() => false, 5000);
    expect(events.length).toBeLessThanOrEqual(8);
    expect(session.ex.streamCappedAt).toBe(64 * 1024);
    expect(client.stats?.cappedStreams).toBe(1);
    await session.close();
  });

  it('parses messages with their id and event, split across chunks, until the condition holds', async () => {
    routes['/s1'] = streaming(
      's1',
      'retry: 3000\n\nid: 1\nevent: a\ndata: {"x":1}\n\nid: 2\nev',
      'ent: b\ndata: two\n\n: heartbeat\n\nid: 3\ndata: three\n\n',
      20,
    );
    const session = await createKitClient().openStream({
      method: 'GET',
      url: `${base}/s1`,
      headers: { 'last-event-id': '0' },
    });
    expect(session.isStream).toBe(true);
    expect(session.ex.requestHeaders).toEqual({ accept: 'text/event-stream', 'last-event-id': '0' });
    const events = await session.readUntil((e) => e.length >= 3, 2000);
    expect(events).toEqual([
      { id: '1', event: 'a', data: '{"x":1}' },
      { id: '2', event: 'b', data: 'two' },
      { id: '3', data: 'three' },
    ]);
    expect(session.ex.text).toContain('id: 3');
    await session.close();
    await session.close();
    await expect.poll(() => closedByClient.includes('s1')).toBe(true);
  });

  it('returns what it has when the time is up and keeps the read in progress for the next call', async () => {
    routes['/s2'] = streaming('s2', 'id: 1\ndata: a\n\n', 'id: 2\ndata: b\n\n', 150);
    const session = await createKitClient().openStream({ method: 'GET', url: `${base}/s2` });
    const started = performance.now();
    expect((await session.readUntil((e) => e.length >= 2, 50)).map((e) => e.id)).toEqual(['1']);
    expect(performance.now() - started).toBeLessThan(1000);
    expect((await session.readUntil((e) => e.length >= 2, 2000)).map((e) => e.id)).toEqual(['1', '2']);
    await session.close();
  });

  it('reads an error answer whole (JSON, requestId) and has no events', async () => {
    routes['/bad?cursor=x'] = (_req, res) =>
      res
        .writeHead(400, { 'content-type': 'application/json' })
        .end('{"ok":false,"error":{"code":"invalid_request"},"meta":{"requestId":"req_1"}}');
    const session = await createKitClient().openStream({ method: 'GET', url: `${base}/bad?cursor=x` });
    expect([session.isStream, session.ex.status, session.ex.requestId, session.events]).toEqual([
      false,
      400,
      'req_1',
      [],
    ]);
    expect(await session.readUntil(() => false, 10)).toEqual([]);
  });
});

describe('event streams with an injected fetch (MSW in-process)', () => {
  const msw = setupServer(
    http.get('https://sse.example/stream', () => {
      const body = new ReadableStream<Uint8Array>({
        start(c) {
          c.enqueue(new TextEncoder().encode('id: 7\nevent: e\ndata: {}\n\n'));
        },
      });
      return new Response(body, { headers: { 'content-type': 'text/event-stream' } });
    }),
  );
  beforeAll(() => msw.listen({ onUnhandledFrame: 'error' }));
  afterAll(() => msw.close());

  it('reads the ReadableStream body of globalThis.fetch and closes it cleanly', async () => {
    const fetch: FetchLike = (url, init) => globalThis.fetch(url, init);
    const session = await createKitClient({ fetch }).openStream({ method: 'GET', url: 'https://sse.example/stream' });
    expect(await session.readUntil((e) => e.length > 0, 1000)).toEqual([{ id: '7', event: 'e', data: '{}' }]);
    await session.close();
  });
});

describe('a wait for a stream message while the run is held', () => {
  /** A body that sends one message after `ms`. */
  const lateBody = (ms: number) => {
    let sent = false;
    return {
      getReader: () => ({
        read: () =>
          sent
            ? new Promise<{ done: boolean }>(() => undefined)
            : new Promise<{ done: boolean; value?: Uint8Array }>((resolve) =>
                setTimeout(() => {
                  sent = true;
                  resolve({ done: false, value: new TextEncoder().encode('id: 1\ndata: late\n\n') });
                }, ms),
              ),
        cancel: async () => undefined,
      }),
    };
  };
  const ex = () => ({
    method: 'GET',
    url: 'http://127.0.0.1/stream',
    status: 200,
    headers: {},
    text: '',
    durationMs: 0,
  });

  it('is lengthened by the time a 429 held the run, so a message the held writes bring later is still read', async () => {
    const session = sseSession(ex() as never, lateBody(150), () => undefined, { heldSince: () => 200 });
    expect((await session.readUntil((e) => e.length > 0, 50)).map((e) => e.data)).toEqual(['late']);
  });

  it('ends at its time when nothing held the run', async () => {
    const session = sseSession(ex() as never, lateBody(150), () => undefined, { heldSince: () => 0 });
    expect(await session.readUntil((e) => e.length > 0, 50)).toEqual([]);
  });
});
