// The bare node:http floor the simulator is compared with: no router, no validation, no state.
// GET answers the providers envelope the simulator returns (built and serialised per request: fresh
// requestId and timestamp, JSON of the same providers); POST reads and parses the JSON body and
// answers an envelope around it, the least any server must do for a modifying call. GET .../stream
// holds an SSE response open, and every POST first writes its record to all of them as an event.
// Usage: node simulator/bench/baseline-server.ts [--port 0] [--ready-file path]
import { randomBytes } from 'node:crypto';
import { readFileSync, writeFileSync } from 'node:fs';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

const VERSION = '2026-07-01';
const FIXTURES = new URL('../../fixtures/hospitality.json', import.meta.url);

/** The providers of a fixture file, read without the simulator's loader (the floor must stay bare). */
export function providersOf(file: URL | string = FIXTURES): unknown[] {
  return (JSON.parse(readFileSync(file, 'utf8')) as { providers: unknown[] }).providers;
}

function envelope(data: unknown): { id: string; body: string } {
  const id = `req_${randomBytes(12).toString('base64url')}`;
  return {
    id,
    body: JSON.stringify({ ok: true, data, meta: { requestId: id, version: VERSION, at: new Date().toISOString() } }),
  };
}

// Content-Length like the simulator's adapter: the floor gets every transport advantage it has.
function answer(res: ServerResponse, data: unknown) {
  const { id, body } = envelope(data);
  res.writeHead(200, {
    'content-type': 'application/json; charset=utf-8',
    'x-request-id': id,
    'content-length': Buffer.byteLength(body),
  });
  res.end(body);
}

/**
 * The baseline request listener.
 * @example createServer(baselineListener(providersOf())).listen(0, '127.0.0.1');
 */
export function baselineListener(providers: unknown[]) {
  const streams = new Set<ServerResponse>();
  let seq = 0;
  return (req: IncomingMessage, res: ServerResponse) => {
    if (req.method === 'GET' && req.url?.startsWith('/api/public/v1/stream')) {
      res.writeHead(200, { 'content-type': 'text/event-stream; charset=utf-8', 'cache-control': 'no-cache' });
      res.write('retry: 3000\n\n');
      streams.add(res);
      res.on('close', () => streams.delete(res));
      return;
    }
    if (req.method === 'GET') return answer(res, { count: providers.length, providers });
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      let body: unknown;
      try {
        body = JSON.parse(Buffer.concat(chunks).toString('utf8'));
      } catch {
        res.writeHead(400, { 'content-type': 'application/json; charset=utf-8' });
        return res.end('{"ok":false}');
      }
      const key = req.headers['idempotency-key'];
      const record = {
        id: `con_${randomBytes(12).toString('base64url')}`,
        ...(body as object),
        state: 'pending',
        createdAt: new Date().toISOString(),
        idempotencyKey: key,
      };
      if (streams.size) {
        const frame = `id: ${++seq}\nevent: connection.created\ndata: ${JSON.stringify(record)}\n\n`;
        for (const s of streams) s.write(frame);
      }
      answer(res, record);
    });
  };
}

function arg(name: string): string | undefined {
  const i = process.argv.indexOf(name);
  return i === -1 ? undefined : process.argv[i + 1];
}

if (import.meta.main) {
  const server = createServer(baselineListener(providersOf(arg('--fixtures') ?? FIXTURES)));
  server.listen(Number(arg('--port') ?? 0), '127.0.0.1', () => {
    const { port } = server.address() as AddressInfo;
    const baseUrl = `http://127.0.0.1:${port}`;
    const ready = arg('--ready-file');
    if (ready) writeFileSync(ready, JSON.stringify({ baseUrl }));
    else process.stdout.write(`${baseUrl}\n`);
  });
  process.once('SIGTERM', () => server.close(() => process.exit(0)));
}
