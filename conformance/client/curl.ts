import type { RedactedPart, Redactor } from './redact.ts';

export interface CurlInput {
  method: string;
  url: string;
  headers: Record<string, string>;
  body?: string | undefined;
}

/** Single-quotes literal text for POSIX shells; secrets become "$ENV" so the shell fills them in. */
function shellWord(parts: RedactedPart[]): string {
  if (parts.length === 0) return "''";
  return parts.map((p) => ('env' in p ? `"$${p.env}"` : `'${p.text.replace(/'/g, `'\\''`)}'`)).join('');
}

// Headers fetch adds by itself; repeating them would only make the command noisier.
const IMPLICIT = new Set(['content-length', 'host', 'connection', 'user-agent', 'accept-encoding']);

/**
 * A curl command that repeats one request, with every registered secret replaced by its variable.
 * @example toCurl({ method: 'GET', url, headers: { authorization: `Bearer ${t}` } }, redactor)
 * // curl -sS -i 'https://…/providers' -H 'authorization: Bearer '"$NCS_TOKEN"
 */
export function toCurl(req: CurlInput, redactor: Redactor): string {
  const words = ['curl', '-sS', '-i'];
  if (req.method !== 'GET' || req.body !== undefined) words.push('-X', req.method);
  words.push(shellWord(redactor.parts(req.url)));
  for (const [name, value] of Object.entries(req.headers)) {
    if (IMPLICIT.has(name.toLowerCase())) continue;
    words.push('-H', shellWord(redactor.parts(`${name}: ${value}`)));
  }
  if (req.body !== undefined) words.push('--data-raw', shellWord(redactor.parts(req.body)));
  return words.join(' ');
}
