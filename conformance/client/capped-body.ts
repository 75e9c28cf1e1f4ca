import type { StreamBodyLike } from './sse-stream.ts';

/** What these helpers read of a request and of a response (the client's SendRequest and ResponseLike fit). */
interface HeadersOf {
  headers?: Record<string, string>;
  omitDefaultHeaders?: boolean;
}
interface BodyOf {
  text(): Promise<string>;
  body?: Partial<StreamBodyLike> | null;
}

/**
 * The request's headers over the defaults; a name the request gives (any letter case) replaces the default.
 * @example withDefaults({ method: 'GET', url, headers: { 'service-version': '2026-06-12' } }, { 'Service-Version': '2026-07-01' })
 */
export function withDefaults(req: HeadersOf, defaults: Record<string, string>): Record<string, string> {
  const own = { ...req.headers };
  if (req.omitDefaultHeaders) return own;
  const named = new Set(Object.keys(own).map((k) => k.toLowerCase()));
  const out: Record<string, string> = {};
  for (const [k, v] of Object.entries(defaults)) if (!named.has(k.toLowerCase())) out[k] = v;
  return { ...out, ...own };
}

/**
 * Reads at most `cap` bytes of a body; the rest is cancelled, not read. Bodies without a reader (test
 * doubles) are read whole and cut.
 * @example const { text, capped } = await readCapped(res, 2 * 1024 * 1024);
 */
export async function readCapped(res: BodyOf, cap: number): Promise<{ text: string; capped: boolean }> {
  const reader = res.body?.getReader?.();
  if (!reader) {
    const text = await res.text();
    const bytes = Buffer.from(text, 'utf8');
    return bytes.length > cap
      ? { text: bytes.subarray(0, cap).toString('utf8'), capped: true }
      : { text, capped: false };
  }
  const chunks: Uint8Array[] = [];
  let size = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done || !value) break;
    if (size + value.length > cap) {
      chunks.push(value.subarray(0, cap - size));
      size = cap;
      await reader.cancel().catch(() => undefined);
      return { text: Buffer.concat(chunks).toString('utf8'), capped: true };
    }
    chunks.push(value);
    size += value.length;
  }
  return { text: Buffer.concat(chunks).toString('utf8'), capped: false };
}
