import { createHmac, timingSafeEqual } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { DEFAULT_SIGNATURE_HEADER } from '../../contract/webhook-signature.ts';

/** How one receiver judges a delivery: true accepts (204), false refuses (400), 'drop' closes the connection unanswered. */
export type Verify = (raw: Buffer, header: string | undefined, secret: string, deliveryId: string) => boolean | 'drop';

const hmac = (secret: string, t: string, body: Buffer | string) =>
  createHmac('sha256', secret).update(`${t}.`).update(body).digest('hex');
const parse = (header: string | undefined) => {
  const parts = Object.fromEntries((header ?? '').split(',').map((p) => p.trim().split('=') as [string, string]));
  return { t: parts.t ?? '', v1: parts.v1 ?? '' };
};
const fresh = (t: string, windowS: number) => /^\d+$/.test(t) && Math.abs(Date.now() / 1000 - Number(t)) <= windowS;
const sameHex = (a: string, b: string) =>
  a.length === b.length && timingSafeEqual(Buffer.from(a, 'utf8'), Buffer.from(b, 'utf8'));

/** A receiver of the interface's rule written by hand: constant time, its own (stricter) window. */
const strict =
  (windowS: number): Verify =>
  (raw, header, secret) => {
    const { t, v1 } = parse(header);
    return fresh(t, windowS) && sameHex(v1, hmac(secret, t, raw));
  };

export interface ReceiverKind {
  does: string;
  /** Whether webhooks.receiver-verifies must pass (a careful receiver) or fail. */
  passes: boolean;
  verify: Verify;
}

export const RECEIVERS: ReceiverKind[] = [
  {
    does: 'verifies in constant time with a 120 s window (stricter than 300 s)',
    passes: true,
    verify: strict(120),
  },
  {
    does: 'verifies in constant time and refuses (400) a delivery id it has already processed',
    passes: true,
    verify: (() => {
      const seen = new Set<string>();
      return (raw: Buffer, header: string | undefined, secret: string, id: string) => {
        if (!strict(300)(raw, header, secret, id)) return false;
        if (seen.has(id)) return false;
        seen.add(id);
        return true;
      };
    })(),
  },
  {
    does: 'checks the signature but never the timestamp',
    passes: false,
    verify: (raw, header, secret) => {
      const { t, v1 } = parse(header);
      return sameHex(v1, hmac(secret, t, raw));
    },
  },
  {
    does: 'verifies the parsed body serialised again, not the raw bytes',
    passes: false,
    verify: (raw, header, secret) => {
      const { t, v1 } = parse(header);
      let again: string;
      try {
        again = JSON.stringify(JSON.parse(raw.toString('utf8')));
      } catch {
        return false;
      }
      return fresh(t, 300) && sameHex(v1, hmac(secret, t, again));
    },
  },
  {
    does: 'expects the signature in upper-case hex',
    passes: false,
    verify: (raw, header, secret) => {
      const { t, v1 } = parse(header);
      return fresh(t, 300) && sameHex(v1, hmac(secret, t, raw).toUpperCase());
    },
  },
];

/** A receiver on 127.0.0.1 that answers each delivery as `verify` decides (an acceptance after `delayMs`). */
export async function startUnnamedReceiver(verify: Verify, delayMs = 0) {
  let secret = '';
  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const header = req.headers[DEFAULT_SIGNATURE_HEADER.toLowerCase()];
      const value = Array.isArray(header) ? header[0] : header;
      const ok = verify(Buffer.concat(chunks), value, secret, String(req.headers['ncs-delivery'] ?? ''));
      if (ok === 'drop') return void req.socket.destroy();
      const answer = () => res.writeHead(ok ? 204 : 400).end();
      if (ok && delayMs) setTimeout(answer, delayMs).unref();
      else answer();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/hooks`,
    setSecret(s: string) {
      secret = s;
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
