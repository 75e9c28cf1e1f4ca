// A small YAML writer for the per-version document file (what package:yaml_writer does for the team):
// block mappings and sequences, every string double-quoted as JSON so no scalar is misread.
type Json = null | boolean | number | string | Json[] | { [k: string]: Json };

const scalar = (v: Json): string => JSON.stringify(v);
const isEmpty = (v: Json) =>
  Array.isArray(v) ? v.length === 0 : typeof v === 'object' && v !== null && Object.keys(v).length === 0;

function lines(v: Json, indent: string): string[] {
  if (Array.isArray(v)) {
    return v.flatMap((item) => {
      if (item !== null && typeof item === 'object' && !isEmpty(item)) {
        const [first = '', ...rest] = lines(item, `${indent}  `);
        return [`${indent}- ${first.trimStart()}`, ...rest];
      }
      return [`${indent}- ${isEmpty(item) ? (Array.isArray(item) ? '[]' : '{}') : scalar(item)}`];
    });
  }
  if (v !== null && typeof v === 'object') {
    return Object.entries(v).flatMap(([k, val]) => {
      const key = `${indent}${JSON.stringify(k)}:`;
      if (val !== null && typeof val === 'object') {
        if (isEmpty(val)) return [`${key} ${Array.isArray(val) ? '[]' : '{}'}`];
        return [key, ...lines(val, `${indent}  `)];
      }
      return [`${key} ${scalar(val)}`];
    });
  }
  return [`${indent}${scalar(v)}`];
}

export function toYaml(doc: unknown): string {
  return `${lines(doc as Json, '').join('\n')}\n`;
}
