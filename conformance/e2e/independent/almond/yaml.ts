// A small YAML writer for the downloadable OpenAPI files: block mappings and sequences, scalars as JSON
// (every JSON scalar is a valid YAML flow scalar), empty collections in flow style.

const PLAIN = /^[A-Za-z_/][A-Za-z0-9_./ -]*$/;
const RESERVED = new Set(['true', 'false', 'null', 'yes', 'no', 'on', 'off', 'y', 'n', '~']);

/** A string as YAML: plain where nothing could be misread (a word, a path), else double-quoted like JSON. */
function text(value: string): string {
  if (PLAIN.test(value) && !RESERVED.has(value.toLowerCase()) && !value.endsWith(' ') && !value.includes(' -'))
    return value;
  return JSON.stringify(value);
}

function scalar(value: unknown): string {
  if (typeof value === 'string') return text(value);
  if (typeof value === 'number' || typeof value === 'boolean') return String(value);
  return 'null';
}

function isCollection(value: unknown): value is Record<string, unknown> | unknown[] {
  return value !== null && typeof value === 'object';
}

function isEmpty(value: Record<string, unknown> | unknown[]): boolean {
  return Array.isArray(value) ? value.length === 0 : Object.keys(value).length === 0;
}

function lines(value: unknown, indent: number): string[] {
  const pad = ' '.repeat(indent);
  const out: string[] = [];
  if (Array.isArray(value)) {
    for (const item of value) {
      if (isCollection(item) && !isEmpty(item)) {
        const inner = lines(item, indent + 2);
        out.push(`${pad}- ${(inner[0] ?? '').trimStart()}`, ...inner.slice(1));
      } else out.push(`${pad}- ${isCollection(item) ? (Array.isArray(item) ? '[]' : '{}') : scalar(item)}`);
    }
    return out;
  }
  for (const [key, item] of Object.entries(value as Record<string, unknown>)) {
    const k = text(key);
    if (isCollection(item) && !isEmpty(item)) out.push(`${pad}${k}:`, ...lines(item, indent + 2));
    else out.push(`${pad}${k}: ${isCollection(item) ? (Array.isArray(item) ? '[]' : '{}') : scalar(item)}`);
  }
  return out;
}

/** YAML text of a JSON value (an object at the top). */
export function toYaml(value: Record<string, unknown>): string {
  return `${lines(value, 0).join('\n')}\n`;
}
