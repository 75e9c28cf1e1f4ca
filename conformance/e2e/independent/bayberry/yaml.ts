// A small YAML emitter for the per-version YAML file (the team would use a yaml library; none is allowed
// here). Every string is double-quoted JSON, which YAML 1.2 reads as the same string.
import type { Rec } from './state.ts';

function scalar(v: unknown): string {
  if (v === null) return 'null';
  if (typeof v === 'string') return JSON.stringify(v);
  return String(v);
}

function emit(v: unknown, indent: string): string {
  if (Array.isArray(v)) {
    if (v.length === 0) return ' []';
    return v.map((x) => `\n${indent}-${block(x, `${indent}  `)}`).join('');
  }
  if (v && typeof v === 'object') {
    const keys = Object.keys(v);
    if (keys.length === 0) return ' {}';
    return keys.map((k) => `\n${indent}${JSON.stringify(k)}:${block((v as Rec)[k], `${indent}  `)}`).join('');
  }
  return ` ${scalar(v)}`;
}

function block(v: unknown, indent: string): string {
  return emit(v, indent);
}

export function toYaml(doc: Rec): string {
  return `${emit(doc, '').slice(1)}\n`;
}
