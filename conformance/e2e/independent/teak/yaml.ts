// A small YAML writer for the per-version .yaml file (no YAML package: node:http and node:crypto only).
import type { Rec } from './state.ts';

/** A small YAML writer (block style, every string quoted as JSON, which YAML accepts). */
export function toYaml(v: unknown, indent = ''): string {
  if (Array.isArray(v)) {
    if (v.length === 0) return '[]';
    return v.map((x) => `\n${indent}- ${toYaml(x, `${indent}  `).replace(/^\n\s*/, '')}`).join('');
  }
  if (v && typeof v === 'object') {
    const entries = Object.entries(v as Rec);
    if (entries.length === 0) return '{}';
    return entries.map(([k, x]) => `\n${indent}${JSON.stringify(k)}: ${toYaml(x, `${indent}  `)}`).join('');
  }
  return JSON.stringify(v);
}
