import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { DEFAULT_SIGNATURE_HEADER, verifyWebhook } from '../../contract/webhook-signature.ts';

/**
 * A webhook receiver on 127.0.0.1: careless (204 to everything) or careful (the signature header must
 * be there, in lowercase hex, match the body under the secret within 300 s; a delivery id already
 * seen is acknowledged again without being processed twice).
 */
export async function startReceiver(kind: 'careless' | 'careful') {
  let secret = '';
  const seen = new Set<string>();
  let processed = 0;
  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const body = Buffer.concat(chunks);
      if (kind === 'careless') return res.writeHead(204).end();
      const header = req.headers[DEFAULT_SIGNATURE_HEADER.toLowerCase()];
      const value = Array.isArray(header) ? header[0] : header;
      const lowercase = value !== undefined && /v1=[0-9a-f]{64}(,|$)/.test(value);
      const verified = lowercase ? verifyWebhook(body, value, secret) : { ok: false as const, reason: 'malformed' };
      if (!verified.ok) return res.writeHead(400).end(verified.reason);
      const id = String(req.headers['ncs-delivery'] ?? '');
      if (!seen.has(id)) {
        seen.add(id);
        processed++;
      }
      res.writeHead(204).end();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/hooks`,
    setSecret(s: string) {
      secret = s;
    },
    processed: () => processed,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
