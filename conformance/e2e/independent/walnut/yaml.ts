// A small YAML emitter for the downloadable schema (drf-spectacular offers ?format=yaml beside JSON).
// Plain block style; every string is double-quoted (JSON string syntax is valid YAML), so no scalar
// can be misread as a number, boolean or null.
export function toYaml(value: unknown, indent = ''): string {
  if (Array.isArray(value)) {
    if (value.length === 0) return '[]';
    return value.map((v) => `\n${indent}- ${nested(v, `${indent}  `)}`).join('');
  }
  if (value !== null && typeof value === 'object') {
    const entries = Object.entries(value as Record<string, unknown>).filter(([, v]) => v !== undefined);
    if (entries.length === 0) return '{}';
    return entries.map(([k, v]) => `\n${indent}${key(k)}:${block(v, `${indent}  `)}`).join('');
  }
  return JSON.stringify(value);
}

/** A key is written plain where YAML cannot misread it, else quoted. */
function key(k: string): string {
  return /^[A-Za-z_$/][\w./{}$-]*$/.test(k) && !/^(true|false|null|yes|no|on|off|y|n|~)$/i.test(k)
    ? k
    : JSON.stringify(k);
}

/** After "key:" a scalar or empty collection stays on the line; a collection starts below. */
function block(v: unknown, indent: string): string {
  const text = toYaml(v, indent);
  return text.startsWith('\n') ? text : ` ${text}`;
}

/** After "- " the first member of a mapping continues the dash's line. */
function nested(v: unknown, indent: string): string {
  const text = toYaml(v, indent);
  return text.startsWith('\n') ? text.slice(1 + indent.length) : text;
}

export function yamlDocument(value: unknown): string {
  return `${toYaml(value).replace(/^\n/, '')}\n`;
}
