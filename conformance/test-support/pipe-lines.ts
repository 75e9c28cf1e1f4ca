// Test proxies in front of the simulator rewrite event streams as they pass: whole lines at a time, so a
// message is never rewritten half in one chunk and half in the next.
import type { ServerResponse } from 'node:http';

/**
 * Writes `body` to `res` line by line through `rewrite`; a partial last line waits for the next chunk,
 * and what is left at the end goes through `rewriteRest` (default: `rewrite`).
 * @example await pipeLines(upstream.body, res, (lines) => lines.replaceAll(a, b));
 */
export async function pipeLines(
  body: AsyncIterable<unknown> | null,
  res: ServerResponse,
  rewrite: (lines: string) => string,
  rewriteRest: (rest: string) => string = rewrite,
): Promise<void> {
  let rest = '';
  const decoder = new TextDecoder();
  if (body)
    for await (const chunk of body) {
      // The client went away (the kit closes a stream once it has read enough): stop pumping, which
      // ends the upstream stream too. Writing on made an error per chunk for as long as the simulator
      // streamed, and every stream the kit had closed kept its upstream subscription open.
      if (res.destroyed) return;
      rest += decoder.decode(chunk as Uint8Array, { stream: true });
      const cut = rest.lastIndexOf('\n') + 1;
      if (cut > 0) res.write(rewrite(rest.slice(0, cut)));
      rest = rest.slice(cut);
    }
  if (!res.destroyed) res.end(rewriteRest(rest));
}
