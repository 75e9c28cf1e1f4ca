// Round 9: hostile payloads for the kit, capped so that a kit that does not bound its reads fails its test
// (memory growth, time) rather than exhausting the shared machine: bombs inflate to 512 MB at most,
// floods stop at 1 GB written and honour backpressure (the test process itself stays small).
import type { ServerResponse } from 'node:http';
import { constants, createBrotliCompress, createGzip } from 'node:zlib';

const ZEROS = Buffer.alloc(1 << 20, 0x20); // 1 MB of spaces: valid JSON whitespace once inflated

async function compress(kind: 'gzip' | 'br', mb: number): Promise<Buffer> {
  const z =
    kind === 'gzip'
      ? createGzip({ level: 9 })
      : createBrotliCompress({ params: { [constants.BROTLI_PARAM_QUALITY]: 5 } });
  const out: Buffer[] = [];
  z.on('data', (c: Buffer) => out.push(c));
  const ended = new Promise((done) => z.on('end', done));
  z.write('{"ok":true,"data":{"routes":[');
  for (let i = 0; i < mb; i++) if (!z.write(ZEROS)) await new Promise((d) => z.once('drain', d));
  z.end(']}}');
  await ended;
  return Buffer.concat(out);
}

const bombs = new Map<string, Promise<Buffer>>();
/** A JSON answer that inflates to `mb` megabytes (cached per kind and size). */
export const bomb = (kind: 'gzip' | 'br', mb = 512) => {
  const k = `${kind}:${mb}`;
  const known = bombs.get(k);
  if (known) return known;
  const made = compress(kind, mb);
  bombs.set(k, made);
  return made;
};

/**
 * Writes `chunk` again and again until `maxBytes` or the reader goes away, waiting for drain: the
 * body "never ends" for any reader that does not cut it. `delayMs` drips it instead.
 */
export async function flood(res: ServerResponse, chunk: Buffer, maxBytes = 1 << 30, delayMs = 0): Promise<void> {
  let sent = 0;
  let gone = false;
  // One close listener for the whole flood (a waiter per drain would pile up listeners).
  let wake: () => void = () => {};
  res.once('close', () => {
    gone = true;
    wake();
  });
  while (!gone && sent < maxBytes) {
    sent += chunk.length;
    if (!res.write(chunk))
      await new Promise<void>((d) => {
        wake = d;
        res.once('drain', d);
      });
    if (delayMs) await new Promise((d) => setTimeout(d, delayMs));
  }
  if (!gone) res.end();
}

/** `depth` nested arrays: `[[[...]]]` (2 bytes a level). */
export const deepArray = (depth: number) => `${'['.repeat(depth)}${']'.repeat(depth)}`;
