// Python's `json.dumps` as the stack writes it: Falcon's JSON media handler and the delivery worker use the default
// separators (", " and ": "); `ensure_ascii=True` (the stdlib default, kept by the worker) writes non-ASCII as \uXXXX.
// `sort_keys` and compact separators are what the audit chain's `json.dumps(..., separators=(",", ":"))` uses.
export interface Dumps {
  sortKeys?: boolean;
  compact?: boolean;
  ensureAscii?: boolean;
}

function str(s: string, ascii: boolean): string {
  const j = JSON.stringify(s);
  return ascii ? j.replace(/[\u007f-\uffff]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`) : j;
}

export function dumps(v: unknown, o: Dumps = {}): string {
  const item = o.compact ? ',' : ', ';
  const kv = o.compact ? ':' : ': ';
  const ascii = o.ensureAscii ?? false;
  const walk = (x: unknown): string => {
    if (x === undefined) return 'null';
    if (typeof x === 'string') return str(x, ascii);
    if (x === null || typeof x !== 'object') return JSON.stringify(x) ?? 'null';
    if (Array.isArray(x)) return `[${x.map(walk).join(item)}]`;
    const rec = x as Record<string, unknown>;
    const keys = Object.keys(rec).filter((k) => rec[k] !== undefined);
    if (o.sortKeys) keys.sort();
    return `{${keys.map((k) => `${str(k, ascii)}${kv}${walk(rec[k])}`).join(item)}}`;
  };
  return walk(v);
}
