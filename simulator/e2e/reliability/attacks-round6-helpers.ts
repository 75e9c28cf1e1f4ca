// Helpers of the round-6 attacks (attacks-round6.e2e.test.ts): raw sockets, answers read as envelopes,
// and loopback receivers that misbehave at the TCP level. Loopback only.
import { connect, createServer, type Server, type Socket } from 'node:net';
import { gzipSync } from 'node:zlib';

export type Failure = { ok: false; error: { code: string; message: string; detail?: string; hint?: string } };

/** Raw bytes (latin1, so 0xA0 stays one byte) in; everything answered until the server closes (or maxMs) out. */
export function raw(port: number, payload: string | Buffer, maxMs = 3000): Promise<string> {
  return new Promise((resolve) => {
    const socket = connect(port, '127.0.0.1');
    let out = '';
    const timer = setTimeout(() => socket.destroy(), maxMs);
    socket.on('data', (d) => (out += d.toString('latin1')));
    socket.on('close', () => {
      clearTimeout(timer);
      resolve(out);
    });
    socket.on('error', () => undefined);
    socket.write(typeof payload === 'string' ? Buffer.from(payload, 'latin1') : payload);
  });
}

/** Every status line of a raw answer, in order (pipelined answers included). */
export function statuses(text: string): number[] {
  return [...text.matchAll(/(?:^|\r\n)HTTP\/1\.1 (\d{3}) /g)].map((m) => Number(m[1]));
}

/** The status and the JSON body of the first answer of a raw exchange. */
export function envelope(text: string): { status: number; json: Failure & { ok: boolean } } {
  const status = Number(/^HTTP\/1\.1 (\d{3})/.exec(text)?.[1]);
  const head = text.indexOf('\r\n\r\n');
  const length = Number(/\r\ncontent-length: (\d+)/i.exec(text.slice(0, head))?.[1]);
  const body = text.slice(head + 4, Number.isNaN(length) ? undefined : head + 4 + length);
  return { status, json: JSON.parse(body) };
}

/** A raw GET with the given extra header lines. */
export const rawGet = (target: string, headers = '', version = 'HTTP/1.1') =>
  `GET ${target} ${version}\r\nHost: 127.0.0.1\r\n${headers}Connection: close\r\n\r\n`;

/** A loopback TCP server answering each connection its own way (a receiver that misbehaves). */
export async function tcpReceiver(onConnection: (socket: Socket) => void): Promise<{ url: string; server: Server }> {
  const server = createServer((socket) => {
    socket.on('error', () => undefined);
    onConnection(socket);
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const { port } = server.address() as { port: number };
  return { url: `http://127.0.0.1:${port}/hook`, server };
}

/** Answers the first bytes of a request with `answer` (a raw HTTP text or bytes), then leaves the socket as `then` says. */
const answerWith =
  (answer: string | Buffer, then: 'end' | 'keep' = 'end') =>
  (socket: Socket) =>
    socket.once('data', () => (then === 'end' ? socket.end(answer) : socket.write(answer)));

const gzipBomb = () => {
  const bomb = gzipSync(Buffer.alloc(64 * 1024 * 1024));
  return Buffer.concat([
    Buffer.from(`HTTP/1.1 200 OK\r\nContent-Encoding: gzip\r\nContent-Length: ${bomb.length}\r\n\r\n`),
    bomb,
  ]);
};

/** Receivers whose answers are not HTTP a client expects: each attempt must be logged, nothing else. */
export const ODD_RECEIVERS: Record<string, { on: (socket: Socket) => void; attempt: RegExp }> = {
  'switches protocols (101)': {
    on: answerWith('HTTP/1.1 101 Switching Protocols\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n\r\n', 'keep'),
    attempt: /^network: /,
  },
  'answers garbage': { on: answerWith('HELLO WORLD\r\n\r\n'), attempt: /^network: / },
  'answers HTTP/0.9 (a body, no status line)': { on: answerWith('OK'), attempt: /^network: / },
  'answers status 600': { on: answerWith('HTTP/1.1 600 Weird\r\nContent-Length: 0\r\n\r\n'), attempt: /^http_600$/ },
  'answers status 099': { on: answerWith('HTTP/1.1 099 Low\r\nContent-Length: 0\r\n\r\n'), attempt: /^network: / },
  'answers twice (200, then an unasked 500)': {
    on: answerWith(
      'HTTP/1.1 200 OK\r\nContent-Length: 0\r\n\r\nHTTP/1.1 500 Oops\r\nContent-Length: 0\r\n\r\n',
      'keep',
    ),
    attempt: /^ok$/,
  },
  'announces 100 bytes, sends 5': {
    on: answerWith('HTTP/1.1 200 OK\r\nContent-Length: 100\r\n\r\nshort'),
    attempt: /^ok$/,
  },
  'sends Content-Length and chunked together': {
    on: answerWith('HTTP/1.1 200 OK\r\nContent-Length: 3\r\nTransfer-Encoding: chunked\r\n\r\n0\r\n\r\n'),
    attempt: /^network: /,
  },
  'answers 200 with a 64 MiB gzip bomb': {
    on: (socket) => socket.once('data', () => socket.end(gzipBomb())),
    attempt: /^ok$/,
  },
};
