import { INTERNAL_SIGNS } from './internal-details.ts';
import { mayRevealAny, revealsSecret } from './leaks.ts';

/** A secret of the run and what to call it in a report (never the value). */
export interface KnownSecret {
  value: string;
  what: string;
}

export interface ScanOptions {
  secrets: readonly KnownSecret[];
  /** An error answer: every sign of internals counts; elsewhere only the precise ones. */
  error: boolean;
  /** Texts legal in this channel, removed before looking: the addresses of the target and the kit, what the request sent. */
  legal?: readonly string[];
  /**
   * Hosts whose addresses are legal on any port: the kit's receiver host. A receiver the kit registered
   * in an earlier run is closed now, and a deployment may report the failed delivery to it (its
   * address is the kit's side, not the deployment's internals).
   */
  legalHosts?: readonly string[];
}

/** Shorter secrets would match by chance. */
const MIN_SECRET = 6;

/**
 * What a text the kit received reveals: every known secret it contains, and every sign of internals.
 * @example scanText('at handler (/srv/app/db.ts:12:5)', { secrets: [], error: false }) // ['a JavaScript stack frame: "at handler (/srv/app/db.ts:12:5)"']
 */
export function scanText(text: string, o: ScanOptions): string[] {
  if (text.length < LARGE) return scanOnce(text, o);
  const key = [
    o.error,
    ...o.secrets.flatMap((s) => [s.value, s.what]),
    '',
    ...(o.legal ?? []),
    '',
    ...(o.legalHosts ?? []),
    text,
  ].join('\0');
  let found = largeScans.get(key);
  if (!found) {
    found = scanOnce(text, o);
    // Bounded by count and by characters kept: a deployment's answers can be as large as the kit reads.
    if (key.length <= LARGE_SCAN_CHARS / 4) {
      largeScanChars += key.length;
      largeScans.set(key, found);
      for (const old of largeScans.keys()) {
        if (largeScans.size <= LARGE_SCANS && largeScanChars <= LARGE_SCAN_CHARS) break;
        largeScans.delete(old);
        largeScanChars -= old.length;
      }
    }
  }
  return [...found];
}

/** How many large scans are kept (the oldest goes first), whatever their count. */
export const largeScansKept = () => ({ count: largeScans.size, chars: largeScanChars });

/**
 * Texts at least this long are scanned once per process for the same options: a run fetches the
 * OpenAPI document (~160 KB) several times, unchanged, and the scan is a pure function of its input.
 */
const LARGE = 16 * 1024;
const LARGE_SCANS = 16;
/** At most this many characters of scanned texts (and their options) are kept, 8 MB at most in UTF-16. */
export const LARGE_SCAN_CHARS = 4 * 1024 * 1024;
const largeScans = new Map<string, string[]>();
let largeScanChars = 0;

/** Any port of a legal host, by host (built once: every exchange of a run is scanned with the same hosts). */
const hostPatterns = new Map<string, RegExp>();
function hostPattern(host: string): RegExp {
  let re = hostPatterns.get(host);
  if (!re) {
    re = new RegExp(`(?<![\\w.-])${host.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}:\\d{2,5}\\b`, 'g');
    if (hostPatterns.size >= 64) hostPatterns.clear();
    hostPatterns.set(host, re);
  }
  return re;
}

function scanOnce(text: string, o: ScanOptions): string[] {
  const found: string[] = [];
  const long = o.secrets.filter((s) => s.value.length >= MIN_SECRET);
  if (
    mayRevealAny(
      text,
      long.map((s) => s.value),
    )
  )
    for (const s of long) if (revealsSecret(text, s.value)) found.push(s.what);
  let cleaned = text;
  for (const l of o.legal ?? []) if (l.length >= 4) cleaned = cleaned.replaceAll(l, ' ');
  for (const h of o.legalHosts ?? []) cleaned = cleaned.replace(hostPattern(h), ' ');
  for (const sign of INTERNAL_SIGNS) {
    if (!o.error && !sign.everywhere) continue;
    if (sign.needs && !sign.needs.some((n) => cleaned.includes(n))) continue;
    const m = sign.find ? sign.find(cleaned) : sign.re.exec(cleaned)?.[0];
    if (m !== undefined) found.push(`${sign.what}: ${JSON.stringify(m.slice(0, 80))}`);
  }
  return found;
}

/** host:port and origin of a URL, the forms an address appears in text. */
export function addressForms(url: string): string[] {
  try {
    const u = new URL(url);
    return [u.origin, u.host];
  } catch {
    return [];
  }
}
