// A small YAML emitter for the OpenAPI document (block style; strings quoted as JSON, which YAML accepts).
const SAFE = /^[A-Za-z_][A-Za-z0-9_ ./-]*$/;
const RESERVED = /^(true|false|null|yes|no|on|off|y|n|~)$/i;

function scalar(v: unknown): string {
  if (typeof v === 'string') return SAFE.test(v) && !RESERVED.test(v) && !v.endsWith(' ') ? v : JSON.stringify(v);
  return JSON.stringify(v) ?? 'null';
}

const keyText = (k: string) => (SAFE.test(k) && !RESERVED.test(k) ? k : JSON.stringify(k));

function emit(v: unknown, indent: string): string[] {
  if (Array.isArray(v)) {
    if (v.length === 0) return [`${indent}[]`];
    return v.flatMap((item) => {
      const lines = block(item, `${indent}  `);
      if (!lines) return [`${indent}- ${scalar(item)}`];
      const [first = '', ...more] = lines;
      return [`${indent}- ${first.trimStart()}`, ...more];
    });
  }
  if (v && typeof v === 'object') {
    const entries = Object.entries(v as Record<string, unknown>);
    if (entries.length === 0) return [`${indent}{}`];
    return entries.flatMap(([k, val]) => {
      const lines = block(val, `${indent}  `);
      return lines ? [`${indent}${keyText(k)}:`, ...lines] : [`${indent}${keyText(k)}: ${scalar(val)}`];
    });
  }
  return [`${indent}${scalar(v)}`];
}

/** The lines of a non-empty object or array, or undefined for a value written inline. */
function block(v: unknown, indent: string): string[] | undefined {
  if (Array.isArray(v)) return v.length ? emit(v, indent) : undefined;
  if (v && typeof v === 'object') return Object.keys(v).length ? emit(v, indent) : undefined;
  return undefined;
}

export function toYaml(doc: unknown): string {
  return `${emit(JSON.parse(JSON.stringify(doc)), '').join('\n')}\n`;
}
