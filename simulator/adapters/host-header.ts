import type { IncomingMessage } from 'node:http';

/**
 * RFC 9112 3.2: an HTTP/1.1 request without a Host header, or any request with more than one, gets a 400.
 * node answers the first with a bare 400 (no envelope) and keeps the first of two Host headers silently;
 * the server turns node's check off (`requireHostHeader: false`) so both answers carry the envelope.
 * @example const problem = checkHost(req); if (problem) core.reject('invalid_request', problem);
 */
export function checkHost(req: IncomingMessage): string | undefined {
  let hosts = 0;
  const raws = req.rawHeaders;
  for (let i = 0; i < raws.length; i += 2) {
    const name = raws[i];
    if (name?.length === 4 && name.toLowerCase() === 'host') hosts++;
  }
  if (hosts > 1) return 'The request has more than one Host header.';
  if (hosts === 0 && req.httpVersionMajor === 1 && req.httpVersionMinor === 1)
    return 'An HTTP/1.1 request needs a Host header.';
  return undefined;
}
