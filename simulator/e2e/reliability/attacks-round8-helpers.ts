// Helpers of the round-8 attacks: raw HTTP/1.1 bytes to a loopback port, and client-credentials
// tokens of the fixtures' clients. Loopback only.
import { connect } from 'node:net';
import { basic, token } from './attacks-round7-helpers.ts';

export const CLIENTS = {
  harbour: { id: 'harbour-backend', secret: 'hk-sandbox-secret-5f2c9a7e1b3d4c60', tenant: 'harbour-kitchens' },
  alpine: { id: 'alpine-backend', secret: 'ab-sandbox-secret-8e41d07c2a9f5b13', tenant: 'alpine-bistro' },
  integrator: { id: 'network-integrator', secret: 'ni-sandbox-secret-3b7d9e2f0a6c4851', tenant: 'harbour-kitchens' },
  pilot: { id: 'pilot-backend', secret: 'pb-pilot-secret-6c5d4e3f2a1b0987', tenant: 'harbour-kitchens' },
} as const;

/** An access token of a fixtures client by client credentials (Basic). */
export async function ccToken(base: string, c: { id: string; secret: string }): Promise<string> {
  const t = await token(base, { grant_type: 'client_credentials' }, basic(c.id, c.secret));
  if (typeof t.json.access_token !== 'string') throw new Error(`no token for ${c.id}: ${t.text}`);
  return t.json.access_token;
}

/**
 * Writes `parts` (strings or buffers, `pauseMs` apart) to 127.0.0.1:`port` and collects every byte
 * the server sends until it closes or `waitMs` passes.
 */
export function raw(
  port: number,
  parts: (string | Buffer)[],
  opts: { waitMs?: number; pauseMs?: number; endAfter?: boolean } = {},
): Promise<{ text: string; closed: boolean; ms: number }> {
  return new Promise((resolve) => {
    const t0 = Date.now();
    const s = connect(port, '127.0.0.1');
    let text = '';
    let closed = false;
    const done = () => {
      clearTimeout(timer);
      s.destroy();
      resolve({ text, closed, ms: Date.now() - t0 });
    };
    const timer = setTimeout(done, opts.waitMs ?? 3000);
    s.on('data', (c) => (text += c.toString('latin1')));
    s.on('close', () => {
      closed = true;
      done();
    });
    s.on('error', () => undefined);
    s.on('connect', async () => {
      for (const p of parts) {
        s.write(p);
        if (opts.pauseMs) await new Promise((r) => setTimeout(r, opts.pauseMs));
      }
      if (opts.endAfter) s.end();
    });
  });
}

/** Status codes of every HTTP response in a raw capture, in order. */
export const statuses = (text: string) => [...text.matchAll(/HTTP\/1\.1 (\d{3})/g)].map((m) => Number(m[1]));

/** The JSON body of the first response in a raw capture (its first complete object), or undefined. */
export function firstJson(text: string): any {
  const i = text.indexOf('{"ok"');
  if (i < 0) return undefined;
  for (let j = text.indexOf('}', i); j >= 0; j = text.indexOf('}', j + 1)) {
    try {
      return JSON.parse(text.slice(i, j + 1));
    } catch {
      // not complete yet: try the next brace
    }
  }
  return undefined;
}
