import type { Exchange } from '../client/http-client.ts';

// Errors: "the identifier is all that support needs (no tokens or raw data are to be sent along)". An error
// that names the field it refused, even with its value, is a good message; one that sends the refused
// request back (the body verbatim, re-serialised, or every one of its values) is raw data sent along.

/** Values shorter than this say too little to count as the body's data (a "sandbox", an id of 4). */
const MIN_VALUE = 4;
/** Bodies with fewer string values than this are too small to tell an echo from a precise message. */
const MIN_VALUES = 3;

const errorText = (ex: Exchange) => {
  const e = (ex.json as { error?: Record<string, unknown> } | undefined)?.error;
  if (!e || typeof e !== 'object') return '';
  return ['message', 'detail', 'hint']
    .map((k) => e[k])
    .filter((v): v is string => typeof v === 'string')
    .join('\n');
};

function stringsOf(value: unknown, out: string[] = []): string[] {
  if (typeof value === 'string') out.push(value);
  else if (Array.isArray(value)) for (const v of value) stringsOf(v, out);
  else if (value && typeof value === 'object') for (const v of Object.values(value)) stringsOf(v, out);
  return out;
}

/**
 * How an error answer sends the request's JSON body back, if it does: verbatim, re-serialised, or every
 * one of its (at least three, each at least four characters long) string values.
 * @example bodyEchoProblem(ex) // 'error.detail repeats the request body'
 */
export function bodyEchoProblem(ex: Exchange): string | undefined {
  if (ex.status < 400 || !ex.requestBody) return undefined;
  let sent: unknown;
  try {
    sent = JSON.parse(ex.requestBody);
  } catch {
    return undefined;
  }
  if (!sent || typeof sent !== 'object' || Object.keys(sent).length < 2) return undefined;
  const text = errorText(ex);
  if (!text) return undefined;
  if (text.includes(ex.requestBody) || text.includes(JSON.stringify(sent))) return 'the error repeats the request body';
  const values = [...new Set(stringsOf(sent).filter((v) => v.length >= MIN_VALUE))];
  if (values.length >= MIN_VALUES && values.every((v) => text.includes(v)))
    return `the error repeats every value of the request body (${values.length})`;
  return undefined;
}
