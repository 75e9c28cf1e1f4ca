// A small YAML 1.2 writer for the downloadable description: block style, every scalar JSON-quoted
// (a JSON string is a valid YAML double-quoted scalar), so the YAML file parses to the JSON document.
export function toYaml(value: unknown, indent = ''): string {
  if (Array.isArray(value)) {
    if (value.length === 0) return '[]';
    return value.map((v) => `\n${indent}- ${toYaml(v, `${indent}  `).replace(/^\n\s*/, '')}`).join('');
  }
  if (value !== null && typeof value === 'object') {
    const entries = Object.entries(value as Record<string, unknown>);
    if (entries.length === 0) return '{}';
    return entries
      .map(([k, v]) => {
        const inner = toYaml(v, `${indent}  `);
        const block = inner.startsWith('\n');
        return `\n${indent}${JSON.stringify(k)}:${block ? '' : ' '}${inner}`;
      })
      .join('');
  }
  return JSON.stringify(value);
}
