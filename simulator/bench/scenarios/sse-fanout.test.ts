import { createServer, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { measureFanout } from './sse-fanout.ts';

// A stand-in stream server: the real GET /stream lands from another branch; this checks the
// measurement itself (subscribing, spotting the event, timing) over real loopback sockets.
function fakeStreamServer(opts: { eventBeforeAnswer: boolean; payload: 'id' | 'label' }) {
  const subscribers = new Set<ServerResponse>();
  let seq = 0;
  const server = createServer((req, res) => {
    if (req.url === '/api/public/v1/stream') {
      res.writeHead(200, { 'content-type': 'text/event-stream' });
      res.write(': open\n\n');
      subscribers.add(res);
      res.on('close', () => subscribers.delete(res));
      return;
    }
    if (req.method === 'POST') {
      let body = '';
      req.on('data', (c) => (body += c));
      req.on('end', () => {
        const id = `con_${++seq}`;
        const { scopeLabel } = JSON.parse(body) as { scopeLabel: string };
        const event = () => {
          for (const s of subscribers)
            s.write(`id: ${seq}\ndata: ${JSON.stringify(opts.payload === 'id' ? { id } : { scopeLabel })}\n\n`);
        };
        if (opts.eventBeforeAnswer) event();
        res.writeHead(200, { 'content-type': 'application/json' });
        res.end(JSON.stringify({ ok: true, data: { id } }));
        if (!opts.eventBeforeAnswer) setTimeout(event, 20);
      });
      return;
    }
    res.end('{}');
  });
  return { server, subscribers };
}

describe('SSE fan-out measurement', () => {
  let close: (() => Promise<void>) | undefined;
  afterEach(async () => close?.());

  async function start(opts: Parameters<typeof fakeStreamServer>[0]) {
    const { server, subscribers } = fakeStreamServer(opts);
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    close = () =>
      new Promise((r) => {
        for (const s of subscribers) s.destroy();
        server.close(() => r());
      });
    const { port } = server.address() as AddressInfo;
    return {
      baseUrl: `http://127.0.0.1:${port}`,
      token: 't',
      tenant: 'harbour-kitchens',
      rss: () => process.memoryUsage().rss,
    };
  }

  it('times an event that names the connection id, even when it arrives before the POST answer', async () => {
    const target = await start({ eventBeforeAnswer: true, payload: 'id' });
    const r = await measureFanout(target, '/api/public/v1/stream', 60, { settleMs: 0 });
    expect(r.received).toBe(60);
    expect(Number.isFinite(r.fanoutMs)).toBe(true);
    expect(r.firstMs).toBeLessThanOrEqual(r.fanoutMs);
  });

  it('times an event recognised by the scopeLabel, sent after the answer', async () => {
    const target = await start({ eventBeforeAnswer: false, payload: 'label' });
    const r = await measureFanout(target, '/api/public/v1/stream', 40, { settleMs: 0 });
    expect(r.received).toBe(40);
    expect(r.fanoutMs).toBeGreaterThanOrEqual(r.p50Ms);
  });
});
