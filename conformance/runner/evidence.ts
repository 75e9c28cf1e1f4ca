import { toCurl } from '../client/curl.ts';
import type { Exchange } from '../client/http-client.ts';
import type { Redactor } from '../client/redact.ts';
import type { Failure, FailureInput } from './failure.ts';

const RESPONSE_PREVIEW = 600;

/** "401 unauthorized (The call was not signed in.)" or "200" or "200, body is not JSON". */
export function describeExchange(ex: Exchange): string {
  const body = ex.json as { ok?: unknown; error?: { code?: unknown; message?: unknown } } | undefined;
  if (body?.error && typeof body.error === 'object') {
    const code = typeof body.error.code === 'string' ? body.error.code : '(no error.code)';
    return `${ex.status} ${code}${typeof body.error.message === 'string' ? ` (${body.error.message})` : ''}`;
  }
  if (/text\/event-stream/i.test(ex.headers?.['content-type'] ?? '')) return describeStream(ex);
  const cut = ex.bodyCappedAt ? ` (only the first ${ex.bodyCappedAt} bytes were read)` : '';
  if (ex.text !== '' && ex.json === undefined) return `${ex.status}, body is not JSON${cut}: ${ex.text.slice(0, 80)}`;
  return String(ex.status);
}

/**
 * An event stream as read: how many messages and which numbers, not its text taken for a JSON body.
 * @example describeStream(ex) // '200, an event stream: 3 messages read (id 4 to 6)'
 */
function describeStream(ex: Exchange): string {
  const ids = [...ex.text.matchAll(/^id:\s?(.*)$/gm)].map((m) => m[1]?.trim() ?? '');
  const messages = ex.text.split(/\r?\n\r?\n/).filter((block) => /^data:/m.test(block)).length;
  const range = ids.length ? ` (id ${ids[0]}${ids.length > 1 ? ` to ${ids.at(-1)}` : ''})` : '';
  const cut = ex.streamCappedAt ? `, cut after ${ex.streamCappedAt} bytes` : '';
  return messages
    ? `${ex.status}, an event stream: ${messages} message${messages === 1 ? '' : 's'} read${range}${cut}`
    : `${ex.status}, an event stream: no message read${cut}`;
}

/** A failure with its evidence (request line, requestId, curl, response start), secrets redacted. */
export function toFailure(input: FailureInput, redactor: Redactor): Failure {
  const ex = input.exchange;
  let observed = input.observed ?? (ex ? describeExchange(ex) : 'nothing');
  // Whatever a check concluded from a cut body, the report says the body was cut.
  if (ex?.bodyCappedAt && !observed.includes('bytes were read'))
    observed += ` (the answer was longer than the kit reads: only the first ${ex.bodyCappedAt} bytes were read)`;
  const failure: Failure = {
    expected: redactor.text(input.expected),
    observed: redactor.text(observed),
  };
  if (input.diff?.length)
    failure.diff = input.diff.map((d) => ({
      path: redactor.text(d.path),
      expected: redactor.text(d.expected),
      observed: redactor.text(d.observed),
    }));
  if (ex) {
    failure.request = redactor.text(`${ex.method} ${ex.url}`);
    failure.status = ex.status;
    if (ex.requestId) failure.requestId = ex.requestId;
    failure.curl = toCurl(
      { method: ex.method, url: ex.url, headers: ex.requestHeaders, body: ex.requestBody },
      redactor,
    );
    if (ex.text)
      failure.response = redactor.text(
        ex.text.length > RESPONSE_PREVIEW ? `${ex.text.slice(0, RESPONSE_PREVIEW)}…` : ex.text,
      );
  }
  return failure;
}
