import { type EncodedNeedles, encodedIndex, holdsEncoded } from './encoded-needles.ts';

/** Signs of internals in an error response: stack traces of common runtimes, source paths. */
const INTERNALS: { what: string; re: RegExp }[] = [
  {
    what: 'a JavaScript stack frame',
    re: /\bat (?:async )?(?:[\w$.<>[\]]+ )?\(?(?:(?:file:\/\/)?[\w./\\@-]+\.[cm]?[jt]sx?|node:[\w/]+):\d+:\d+\)?/,
  },
  { what: 'a multi-line stack trace', re: /\n\s+at [\w$.<]/ },
  { what: 'a Python traceback', re: /Traceback \(most recent call last\)/ },
  { what: 'a Java/.NET stack frame', re: /\bat [\w$.]+\([\w$]+\.(?:java|cs|kt):\d+\)/ },
  { what: 'a Go panic', re: /goroutine \d+ \[/ },
  {
    what: 'a runtime exception name',
    re: /\b(?:TypeError|ReferenceError|SyntaxError|RangeError|NullPointerException|Exception in thread)\b/,
  },
  { what: 'a source file path', re: /(?:\/[\w.@-]+)+\/[\w.@-]+\.(?:ts|js|mjs|cjs|tsx|jsx|py|java|go|rb|php|cs|kt)\b/ },
  { what: 'a node_modules path', re: /node_modules[\\/]/ },
  { what: 'a Windows file path', re: /\b[A-Za-z]:\\[\w\\.-]+/ },
];

/**
 * What an error response reveals that it must not: internals, or any of the given secrets (the
 * token sent with the request, the client secret). Each entry says what and where.
 * @example findLeaks(ex.text, [token]) // ['the bearer token sent with the request']
 */
export function findLeaks(text: string, secrets: { value: string; what: string }[]): string[] {
  const found: string[] = [];
  for (const { what, re } of INTERNALS) {
    const m = re.exec(text);
    if (m) found.push(`${what}: ${JSON.stringify(m[0].slice(0, 80))}`);
  }
  const long = secrets.filter((s) => s.value.length >= 6);
  if (
    mayRevealAny(
      text,
      long.map((s) => s.value),
    )
  )
    for (const s of long) if (revealsSecret(text, s.value)) found.push(s.what);
  return found;
}

/** The shortest piece of a long secret that counts as revealing it (random enough that it is no coincidence). */
export const SECRET_PIECE = 16;

/**
 * True when `text` holds the secret, or, for a secret of at least 1.5 × SECRET_PIECE characters, any
 * SECRET_PIECE consecutive characters of it: a token cut short ("Check the token ncs_at_3f9a…") is
 * still sent along, which the Errors section forbids.
 * @example revealsSecret('hint: ncs_at_0123456789abcdef…', 'ncs_at_0123456789abcdefghijklmnop') // true
 */
export function revealsSecret(text: string, secret: string): boolean {
  return revealsPlainly(text, secret) || encodedViews(text).some((view) => revealsPlainly(view, secret));
}

function revealsPlainly(text: string, secret: string): boolean {
  if (text.includes(secret)) return true;
  const random = unpredictablePart(secret);
  if (random.length < SECRET_PIECE * 1.5) return false;
  // Every SECRET_PIECE-long piece holds one of the secret's aligned half-pieces (at 0, 8, 16, …): when the
  // text holds none of those, it holds no piece, found in a few scans of the text instead of one per piece.
  const half = SECRET_PIECE / 2;
  let someHalf = false;
  for (let i = 0; i + half <= random.length && !someHalf; i += half)
    someHalf = text.includes(random.slice(i, i + half));
  if (!someHalf) return false;
  for (let i = 0; i + SECRET_PIECE <= random.length; i++)
    if (text.includes(random.slice(i, i + SECRET_PIECE))) return true;
  return false;
}

const JWT = /^[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+\.([A-Za-z0-9_-]{24,})$/;

/**
 * The part of a secret no one could write without it: a JWT's header and claims are base64url of ordinary
 * JSON (`{"scope":"connections.read"}` encodes like any other text about connections, so a piece of them turns
 * up in unrelated base64 by chance); its signature is the secret part. Other secrets are random throughout.
 * @example unpredictablePart('eyJh.eyJz.c2lnbmF0dXJlLWJ5dGVzLTAxMjM0NTY3ODk') // 'c2lnbmF0dXJlLWJ5dGVzLTAxMjM0NTY3ODk'
 */
export function unpredictablePart(secret: string): string {
  const m = JWT.exec(secret);
  if (!m?.[1]) return secret;
  try {
    const header = JSON.parse(Buffer.from(secret.slice(0, secret.indexOf('.')), 'base64url').toString('utf8'));
    return header && typeof header === 'object' && 'alg' in header ? m[1] : secret;
  } catch {
    return secret;
  }
}

/**
 * Patterns per set of secrets: `plain` matches every text revealsSecret could find one of them in plainly
 * (the secrets and their aligned half-pieces), `encoded` every text holding one of those in base64, base64url
 * or hex, so a text's runs are decoded only when it may hide one (decoding every text's runs was a tenth
 * of a kit run's CPU).
 */
const anyPieces = new Map<string, { plain: RegExp; encoded: EncodedNeedles }>();
const ANY_PIECES_KEPT = 64;

const escapeRe = (p: string) => p.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/**
 * False only when `revealsSecret(text, s)` is false for every secret: one scan of the text for the
 * secrets and their aligned half-pieces (a revealed piece holds one) instead of several per secret.
 * @example mayRevealAny('{"ok":true}', ['ncs_at_0123456789abcdefghijklmnop']) // false
 */
export function mayRevealAny(text: string, secrets: readonly string[]): boolean {
  if (secrets.length === 0) return false;
  const key = secrets.join('\0');
  let patterns = anyPieces.get(key);
  if (!patterns) {
    const half = SECRET_PIECE / 2;
    const pieces = secrets.flatMap((s) => {
      const out = [s];
      const random = unpredictablePart(s);
      if (random.length >= SECRET_PIECE * 1.5)
        for (let i = 0; i + half <= random.length; i += half) out.push(random.slice(i, i + half));
      return out;
    });
    patterns = { plain: new RegExp(pieces.map(escapeRe).join('|')), encoded: encodedIndex(pieces) };
    if (anyPieces.size >= ANY_PIECES_KEPT) anyPieces.delete(anyPieces.keys().next().value as string);
    anyPieces.set(key, patterns);
  }
  const { plain, encoded } = patterns;
  return plain.test(text) || (holdsEncoded(text, encoded) && encodedViews(text).some((view) => plain.test(view)));
}

/** The shortest run of base64 or hex taken for an encoding worth decoding (a 16-character piece needs 22). */
const ENCODED_RUN = 22;
/** Characters of base64 and base64url (and so of hex), by char code. */
const ENCODED_CHAR = new Uint8Array(128);
for (const ch of 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/_-')
  ENCODED_CHAR[ch.charCodeAt(0)] = 1;
const EQUALS = 61;

/**
 * The text's runs of at least ENCODED_RUN base64/base64url characters with up to two `=` after them.
 * One pass over the text: a regular expression with a length floor tried every start inside each
 * shorter run again (a tenth of a kit run's CPU went to it on the OpenAPI document alone).
 * @example encodedRuns('a dG9rOm5jc19hdF8wMTIzNDU2Nzg= b') // ['dG9rOm5jc19hdF8wMTIzNDU2Nzg=']
 */
export function encodedRuns(text: string): string[] {
  const runs: string[] = [];
  let start = -1;
  for (let i = 0; i <= text.length; i++) {
    const code = i < text.length ? text.charCodeAt(i) : 0;
    if (code < 128 && ENCODED_CHAR[code] === 1) {
      if (start < 0) start = i;
      continue;
    }
    if (start >= 0 && i - start >= ENCODED_RUN) {
      let end = i;
      while (end < text.length && end - i < 2 && text.charCodeAt(end) === EQUALS) end++;
      runs.push(text.slice(start, end));
    }
    start = -1;
  }
  return runs;
}

/** Views of recent texts: a run asks about the same answer once per secret, and the OpenAPI document often. */
const recentViews = new Map<string, string[]>();
const RECENT_VIEWS_KEPT = 16;
/** Longer texts are decoded each time: keeping them would hold megabytes for little. */
const RECENT_VIEW_TEXT_MAX = 512 * 1024;

/**
 * The text's runs of base64, base64url or hex, decoded: a secret sent along in an encoding is still
 * sent along (the Errors section: "no tokens … are to be sent along"), and any client decodes it.
 * @example encodedViews('x-trace: dG9rOm5jc19hdF8wMTIz') // ['tok:ncs_at_0123']
 */
export function encodedViews(text: string): string[] {
  const known = recentViews.get(text);
  if (known) return known;
  const views: string[] = [];
  for (const run of encodedRuns(text)) {
    if (/^[0-9a-fA-F]+$/.test(run) && run.length % 2 === 0) views.push(Buffer.from(run, 'hex').toString('latin1'));
    // Four alignments of the run: a token encoded after a prefix starts mid-run.
    for (let skip = 0; skip < 4 && run.length - skip >= ENCODED_RUN; skip++)
      views.push(
        Buffer.from(
          run.slice(skip).replace(/=+$/, ''),
          run.includes('_') || run.includes('-') ? 'base64url' : 'base64',
        ).toString('latin1'),
      );
  }
  if (text.length <= RECENT_VIEW_TEXT_MAX) {
    if (recentViews.size >= RECENT_VIEWS_KEPT) recentViews.delete(recentViews.keys().next().value as string);
    recentViews.set(text, views);
  }
  return views;
}

/** The token of a Bearer Authorization header, if any (to look for it in the answer). */
export function bearerOf(headers: Record<string, string>): string | undefined {
  const value = Object.entries(headers).find(([k]) => k.toLowerCase() === 'authorization')?.[1];
  return value?.match(/^\s*bearer\s+(\S+)/i)?.[1];
}
