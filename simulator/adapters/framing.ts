import type { IncomingMessage } from 'node:http';

/** Why the transport refuses a request's framing: the detail and hint of its 400 invalid_request. */
export interface FramingProblem {
  detail: string;
  hint: string;
}

/**
 * Framing node's parser lets through but the server does not speak. The request line must name
 * HTTP/1.0 or HTTP/1.1: llhttp takes `HTTP/2.0` (and a bare HTTP/0.9 line) and node answered them as
 * HTTP/1.1 while refusing `HTTP/1.2`. The only transfer coding understood is chunked (RFC 9112 6.1: a
 * server answers a coding it does not know with an error): node undoes `chunked` and hands the rest
 * on, so `Transfer-Encoding: gzip, chunked` gave the core compressed bytes to read as JSON.
 * @example const problem = checkFraming(req); if (problem) core.reject('invalid_request', problem.detail, problem);
 */
export function checkFraming(req: IncomingMessage): FramingProblem | undefined {
  if (req.httpVersionMajor !== 1)
    return {
      detail: `The request line names HTTP/${req.httpVersion}; this server speaks HTTP/1.0 or HTTP/1.1.`,
      hint: 'Send HTTP/1.1 requests (an HTTP/2 client must not send its version in an HTTP/1 request line).',
    };
  const coding = req.headers['transfer-encoding'];
  if (coding !== undefined && coding.trim().toLowerCase() !== 'chunked')
    return {
      detail: `Transfer-Encoding ${coding.slice(0, 60)} is not understood; only chunked is.`,
      hint: 'Send the body uncompressed, with Content-Length or Transfer-Encoding: chunked.',
    };
  return undefined;
}
