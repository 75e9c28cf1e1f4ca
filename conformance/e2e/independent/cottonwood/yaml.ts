// A small YAML writer for the per-version download: block style, every string double-quoted (JSON's
// escaping is valid YAML), so no value can be misread as a number, boolean or null.
function scalar(v: unknown): string {
  if (v === null || v === undefined) return 'null';
  if (typeof v === 'string') return JSON.stringify(v);
  return String(v);
}

function lines(v: unknown, indent: string): string[] {
  if (Array.isArray(v)) {
    if (v.length === 0) return [`${indent}[]`];
    return v.flatMap((item) => {
      if (item && typeof item === 'object' && Object.keys(item).length > 0) {
        const [first = '', ...rest] = lines(item, `${indent}  `);
        return [`${indent}- ${first.trimStart()}`, ...rest];
      }
      return [`${indent}- ${inline(item)}`];
    });
  }
  if (v && typeof v === 'object') {
    const entries = Object.entries(v);
    if (entries.length === 0) return [`${indent}{}`];
    return entries.flatMap(([k, val]) => {
      const key = `${indent}${JSON.stringify(k)}:`;
      if (val && typeof val === 'object' && Object.keys(val).length > 0) return [key, ...lines(val, `${indent}  `)];
      return [`${key} ${inline(val)}`];
    });
  }
  return [`${indent}${scalar(v)}`];
}

function inline(v: unknown): string {
  if (Array.isArray(v)) return '[]';
  if (v && typeof v === 'object') return '{}';
  return scalar(v);
}

export function toYaml(doc: unknown): string {
  return `${lines(doc, '').join('\n')}\n`;
}
