// A small YAML writer for the downloadable OpenAPI file: block style, every string and key double-quoted
// (JSON's escapes are YAML's), so the output reads back as exactly the JSON document.

function scalar(v: unknown): string {
  if (v === null || v === undefined) return 'null';
  if (typeof v === 'string') return JSON.stringify(v);
  return String(v);
}

function isEmpty(v: unknown): boolean {
  return typeof v === 'object' && v !== null && Object.keys(v).length === 0;
}

function lines(v: unknown, indent: string): string[] {
  if (Array.isArray(v)) {
    return v.flatMap((item) => {
      if (typeof item === 'object' && item !== null && !isEmpty(item)) {
        const [first = '', ...rest] = lines(item, `${indent}  `);
        return [`${indent}- ${first.trimStart()}`, ...rest];
      }
      return [`${indent}- ${isEmpty(item) ? (Array.isArray(item) ? '[]' : '{}') : scalar(item)}`];
    });
  }
  return Object.entries(v as Record<string, unknown>).flatMap(([k, item]) => {
    const key = `${indent}${JSON.stringify(k)}:`;
    if (typeof item === 'object' && item !== null && !isEmpty(item)) return [key, ...lines(item, `${indent}  `)];
    return [`${key} ${isEmpty(item) ? (Array.isArray(item) ? '[]' : '{}') : scalar(item)}`];
  });
}

/** The YAML text of a JSON object. */
export function toYaml(doc: Record<string, unknown>): string {
  return `${lines(doc, '').join('\n')}\n`;
}
