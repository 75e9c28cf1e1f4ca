// A small YAML 1.2 writer for the downloadable description (Psych's `to_yaml` in the Rails app): block
// style, every string double-quoted with JSON escapes (valid YAML), so the file reads back as the JSON.
export function toYaml(value: unknown, indent = 0): string {
  return `${emit(value, indent).replace(/^\n/, '')}\n`;
}

function scalar(v: unknown): string {
  if (v === null || v === undefined) return 'null';
  if (typeof v === 'string') return JSON.stringify(v);
  return String(v);
}

function isEmpty(v: unknown): boolean {
  return typeof v === 'object' && v !== null && Object.keys(v).length === 0;
}

/** A value after a key or dash: a scalar on the same line, a collection on the following lines. */
function emit(v: unknown, indent: number): string {
  const pad = ' '.repeat(indent);
  if (Array.isArray(v)) {
    if (v.length === 0) return ' []';
    return v
      .map((item) => {
        if (typeof item === 'object' && item !== null && !isEmpty(item)) {
          // The first key of a mapping item shares the dash's line.
          const inner = emit(item, indent + 2)
            .replace(/^\n {2}/, '')
            .replace(new RegExp(`^${pad}`), '');
          return `\n${pad}- ${inner.trimStart()}`;
        }
        return `\n${pad}-${emit(item, indent + 2)}`;
      })
      .join('');
  }
  if (typeof v === 'object' && v !== null) {
    const entries = Object.entries(v).filter(([, x]) => x !== undefined);
    if (entries.length === 0) return ' {}';
    return entries.map(([k, x]) => `\n${pad}${JSON.stringify(k)}:${emit(x, indent + 2)}`).join('');
  }
  return ` ${scalar(v)}`;
}
