import { connect, type Socket } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type RunningServer, serve } from '../../app/serve.ts';

// Issue 23 item 5: anonymous streams from many loopback source addresses cannot take the places
// authenticated clients need: their total is bounded to a share of all streams.
function openStream(port: number, localAddress: string, headers = ''): Promise<{ status: string; socket: Socket }> {
  return new Promise((resolve, reject) => {
    const socket = connect({ host: '127.0.0.1', port, localAddress });
    socket.once('error', reject);
    socket.once('connect', () => socket.write(`GET /api/public/v1/stream HTTP/1.1\r\nHost: x\r\n${headers}\r\n`));
    socket.once('data', (chunk) => resolve({ status: chunk.toString('latin1').split('\r\n')[0]!, socket }));
  });
}

let s: RunningServer;
const sockets: Socket[] = [];
beforeAll(async () => {
  s = await serve({ port: 0, stream: { limits: { maxClients: 40, maxAnonymousPerAddress: 4 } } });
});
afterAll(async () => {
  for (const x of sockets) x.destroy();
  await s?.close();
});

describe('anonymous streams share', () => {
  it('11 loopback addresses at their per-address cap leave room for authenticated streams', async () => {
    const port = Number(new URL(s.baseUrl).port);
    let admitted = 0;
    for (let a = 2; a <= 12; a++)
      for (let i = 0; i < 4; i++) {
        const open = await openStream(port, `127.0.0.${a}`);
        sockets.push(open.socket);
        if (open.status === 'HTTP/1.1 200 OK') admitted++;
        else expect(open.status).toBe('HTTP/1.1 429 Too Many Requests');
      }
    // A quarter of the 40 places at most (the default share); the rest stays for authenticated clients.
    expect(admitted).toBe(10);
    const auth = `Authorization: Bearer ${s.token}\r\nx-service-tenant: ${s.tenant}\r\n`;
    for (let i = 0; i < 5; i++) {
      const mine = await openStream(port, '127.0.0.2', auth);
      sockets.push(mine.socket);
      expect(mine.status).toBe('HTTP/1.1 200 OK');
    }
  });
});
