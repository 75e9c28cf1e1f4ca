// The OpenAPI document as served: JSON at openapi.json and the same description as a YAML download at
// openapi.yaml. The YAML writer is block style with every string and key double-quoted (a YAML
// double-quoted scalar accepts JSON's string escapes), so no value is re-typed on the way.
import { type Call, CURRENT_VERSION } from './http.ts';
import { openapiDocument } from './openapi.ts';

function scalar(v: unknown): string {
  if (typeof v === 'string') return JSON.stringify(v);
  if (v === null || v === undefined) return 'null';
  return String(v);
}

function isEmpty(v: unknown): boolean {
  return (Array.isArray(v) && v.length === 0) || (typeof v === 'object' && v !== null && Object.keys(v).length === 0);
}

function block(v: unknown, indent: string): string[] {
  if (Array.isArray(v)) {
    return v.flatMap((item) => {
      if (typeof item !== 'object' || item === null || isEmpty(item)) return [`${indent}- ${inline(item)}`];
      const [first, ...rest] = block(item, `${indent}  `);
      return [`${indent}- ${(first ?? '').trimStart()}`, ...rest];
    });
  }
  // Like JSON.stringify, a field whose value is undefined is left out.
  const entries = Object.entries(v as Record<string, unknown>).filter(([, val]) => val !== undefined);
  return entries.flatMap(([k, val]) => {
    const key = `${indent}${JSON.stringify(k)}:`;
    if (typeof val !== 'object' || val === null || isEmpty(val)) return [`${key} ${inline(val)}`];
    return [key, ...block(val, `${indent}  `)];
  });
}

function inline(v: unknown): string {
  if (Array.isArray(v)) return '[]';
  if (typeof v === 'object' && v !== null) return '{}';
  return scalar(v);
}

export function toYaml(doc: Record<string, unknown>): string {
  return `${block(doc, '').join('\n')}\n`;
}

export function serveOpenapiJson(call: Call): void {
  const text = JSON.stringify(openapiDocument(call.origin));
  call.res.writeHead(200, { 'Content-Type': 'application/json; charset=utf-8', 'X-Request-Id': call.requestId });
  call.res.end(text);
}

export function serveOpenapiYaml(call: Call): void {
  const text = toYaml(openapiDocument(call.origin));
  call.res.writeHead(200, {
    'Content-Type': 'application/yaml; charset=utf-8',
    'Content-Disposition': `attachment; filename="network-connections-${CURRENT_VERSION}.yaml"`,
    'X-Request-Id': call.requestId,
  });
  call.res.end(text);
}
