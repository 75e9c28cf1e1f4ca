// YAML 1.2 text of a JSON value, for the downloadable OpenAPI files: block mappings and sequences, every
// scalar written as JSON (a quoted string, a number, true/false/null), which YAML reads as it is.

function nested(x: unknown): boolean {
  return (Array.isArray(x) && x.length > 0) || (!!x && typeof x === 'object' && Object.keys(x).length > 0);
}

/** The lines of `v` at `indent`, each starting with a line break. */
function lines(v: unknown, indent: string): string {
  if (Array.isArray(v)) {
    if (v.length === 0) return ' []';
    return v.map((x) => `\n${indent}-${nested(x) ? lines(x, `${indent}  `) : ` ${scalar(x)}`}`).join('');
  }
  if (v && typeof v === 'object') {
    const entries = Object.entries(v as Record<string, unknown>).filter(([, x]) => x !== undefined);
    if (entries.length === 0) return ' {}';
    return entries
      .map(([k, x]) => `\n${indent}${JSON.stringify(k)}:${nested(x) ? lines(x, `${indent}  `) : ` ${scalar(x)}`}`)
      .join('');
  }
  return ` ${scalar(v)}`;
}

function scalar(x: unknown): string {
  if (Array.isArray(x)) return '[]';
  if (x && typeof x === 'object') return '{}';
  return JSON.stringify(x ?? null);
}

/** A YAML document of a JSON object. */
export function yamlDocument(v: unknown): string {
  return `${lines(v, '').replace(/^\n/, '')}\n`;
}
