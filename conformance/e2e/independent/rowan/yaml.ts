// A small YAML emitter for the OpenAPI document (block style, every string quoted as JSON: valid YAML 1.2).
function scalar(v: unknown): string {
  if (v === null) return 'null';
  if (typeof v === 'string') return JSON.stringify(v);
  return String(v);
}

function emit(v: unknown, indent: string, out: string[], lead: string): void {
  if (Array.isArray(v)) {
    if (v.length === 0) {
      out.push(`${lead}[]`);
      return;
    }
    if (lead) out.push(lead.trimEnd());
    for (const item of v) {
      if (typeof item === 'object' && item !== null) emit(item, `${indent}  `, out, `${indent}- `);
      else out.push(`${indent}- ${scalar(item)}`);
    }
    return;
  }
  if (typeof v === 'object' && v !== null) {
    const entries = Object.entries(v);
    if (entries.length === 0) {
      out.push(`${lead}{}`);
      return;
    }
    let first = true;
    for (const [k, val] of entries) {
      // The first key of a list item shares the "- " line.
      let prefix = indent;
      if (first && lead.endsWith('- ')) prefix = lead;
      else if (first && lead) out.push(lead.trimEnd());
      first = false;
      const key = `${prefix}${JSON.stringify(k)}:`;
      if (
        typeof val === 'object' &&
        val !== null &&
        (Array.isArray(val) ? val.length > 0 : Object.keys(val).length > 0)
      ) {
        out.push(key);
        emit(val, `${indent}  `, out, '');
      } else if (typeof val === 'object' && val !== null) {
        out.push(`${key} ${Array.isArray(val) ? '[]' : '{}'}`);
      } else {
        out.push(`${key} ${scalar(val)}`);
      }
    }
    return;
  }
  out.push(`${lead}${scalar(v)}`);
}

export function toYaml(doc: unknown): string {
  const out: string[] = [];
  emit(doc, '', out, '');
  return `${out.join('\n')}\n`;
}
