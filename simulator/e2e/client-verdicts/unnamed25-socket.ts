import { connect, type Socket } from 'node:net';
import { CURRENT_VERSION } from '../../contract/versions.ts';
import type { Target } from '../harness.ts';
import type { Auth, Reply } from './unnamed-kit.ts';

/**
 * A connection opened ahead of need, as pools that pre-connect do (undici's `connect` warm-up, OkHttp's
 * connection pre-warming, a sidecar keeping a spare upstream socket): open now, first used later for one
 * HTTP/1.1 request (`Connection: close`), so its first request may come long after it was accepted.
 */
export async function warmSocket(t: Target) {
  const url = new URL(t.baseUrl);
  const socket: Socket = await new Promise((resolve, reject) => {
    const s = connect(Number(url.port), url.hostname, () => resolve(s));
    s.on('error', reject);
  });
  return {
    /** Sends one request on the warm connection and reads its answer until the server closes it. */
    send(a: Auth, method: string, path: string, o: { body?: unknown; key?: string } = {}): Promise<Reply> {
      const body = o.body === undefined ? '' : JSON.stringify(o.body);
      const head = [
        `${method} /api/public/v1${path} HTTP/1.1`,
        `Host: ${url.host}`,
        `Authorization: Bearer ${a.token}`,
        `X-Service-Tenant: ${a.tenant}`,
        `Service-Version: ${CURRENT_VERSION}`,
        'Connection: close',
        ...(o.key ? [`Idempotency-Key: ${o.key}`] : []),
        ...(body ? ['Content-Type: application/json'] : []),
        `Content-Length: ${Buffer.byteLength(body)}`,
      ];
      return new Promise((resolve) => {
        const chunks: Buffer[] = [];
        socket.on('data', (c: Buffer) => chunks.push(c));
        socket.on('error', () => resolve({ status: 0, json: undefined, retryAfterMs: 0 }));
        socket.on('close', () => {
          const text = Buffer.concat(chunks).toString('utf8');
          const status = Number(/^HTTP\/1\.[01] (\d{3})/.exec(text)?.[1] ?? 0);
          const ra = /\r\nretry-after: (\d+)/i.exec(text)?.[1];
          const rest = text.slice(text.indexOf('\r\n\r\n') + 4);
          let json: unknown;
          try {
            // Chunked or not: the JSON is the part between the first `{` and the last `}`.
            json = JSON.parse(rest.slice(rest.indexOf('{'), rest.lastIndexOf('}') + 1));
          } catch {}
          resolve({ status, json, retryAfterMs: Number(ra ?? 0) * 1000 });
        });
        socket.end(`${head.join('\r\n')}\r\n\r\n${body}`);
      });
    },
    close: () => socket.destroy(),
  };
}
