// A small YAML writer for the downloadable description (what `bal openapi` writes as openapi.yaml): block
// style, every string double-quoted in JSON's escaping, which YAML 1.2 reads unchanged.
import type { Rec } from './state.ts';

const scalar = (v: unknown): string =>
  typeof v === 'string' ? JSON.stringify(v) : v === undefined ? 'null' : JSON.stringify(v);

function emit(v: unknown, indent: string, out: string[]): void {
  if (Array.isArray(v)) {
    for (const item of v) {
      if (item && typeof item === 'object' && Object.keys(item).length > 0) {
        const lines: string[] = [];
        emit(item, `${indent}  `, lines);
        out.push(`${indent}- ${(lines[0] ?? '').trimStart()}`, ...lines.slice(1));
      } else
        out.push(`${indent}- ${Array.isArray(item) ? '[]' : item && typeof item === 'object' ? '{}' : scalar(item)}`);
    }
    return;
  }
  for (const [k, val] of Object.entries(v as Rec)) {
    const key = JSON.stringify(k);
    if (val && typeof val === 'object' && Object.keys(val).length > 0) {
      out.push(`${indent}${key}:`);
      emit(val, `${indent}  `, out);
    } else
      out.push(`${indent}${key}: ${Array.isArray(val) ? '[]' : val && typeof val === 'object' ? '{}' : scalar(val)}`);
  }
}

export function toYaml(doc: Rec): string {
  const out: string[] = [];
  emit(doc, '', out);
  return `${out.join('\n')}\n`;
}
