// A YAML description read as the JSON value it stands for, within bounds: anchors and aliases are YAML
// (PyYAML and libyaml write them for repeated parts), an alias bomb is not a document the kit expands.
import { parse } from 'yaml';

/** What a YAML text stands for, or why the kit has no value: not YAML, or past the kit's own bounds (`guard`). */
export type YamlRead = { value: unknown } | { problem: string; guard?: true };

/** The yaml package's measure of aliasing per anchor (its uses times the aliases inside it): exponential bombs exceed it. */
const MAX_ALIASES = 10_000;
/** An expanded document may hold this many values per character of its text (anchors shared many times). */
const MAX_EXPANSION = 4;
const TOO_LARGE = Symbol('too large');

/** A JSON copy of a parsed value (aliases expanded), or TOO_LARGE once `budget.left` values are spent. */
function boundedCopy(v: unknown, budget: { left: number }): unknown {
  if (--budget.left < 0) return TOO_LARGE;
  if (Array.isArray(v)) {
    const out: unknown[] = [];
    for (const x of v) {
      const c = boundedCopy(x, budget);
      if (c === TOO_LARGE) return TOO_LARGE;
      out.push(c === undefined ? null : c);
    }
    return out;
  }
  if (v instanceof Date) return v.toISOString();
  if (v && typeof v === 'object') {
    const out: Record<string, unknown> = {};
    for (const [k, x] of v instanceof Map ? v : Object.entries(v)) {
      const c = boundedCopy(x, budget);
      if (c === TOO_LARGE) return TOO_LARGE;
      if (c !== undefined) out[String(k)] = c;
    }
    return out;
  }
  if (typeof v === 'number' && !Number.isFinite(v)) return null;
  if (typeof v === 'bigint') return Number(v);
  return v;
}

/**
 * The YAML text as the JSON value it stands for, or why it is none (not YAML, an alias bomb, a cycle).
 * The value may be shared with earlier calls for the same text: read it, do not change it.
 * @example yamlAsJson('a: [1, 2]') // { value: { a: [1, 2] } }
 */
export function yamlAsJson(text: string): YamlRead {
  const known = parsedYaml.get(text);
  if (known) return known;
  let result: YamlRead;
  try {
    // YAML 1.2's core schema (the package's default): `2026-07-01` stays a string, as in the JSON.
    const parsed = parse(text, { maxAliasCount: MAX_ALIASES }) ?? null;
    const value = boundedCopy(parsed, { left: MAX_EXPANSION * text.length + 10_000 });
    result =
      value === TOO_LARGE
        ? {
            problem: `its anchors expand to more than ${MAX_EXPANSION} times its text, past what the kit reads`,
            guard: true,
          }
        : { value };
  } catch (err) {
    const problem = err instanceof Error ? (err.message.split('\n')[0] ?? err.name) : String(err);
    result = /alias/i.test(problem)
      ? { problem: `more aliases than the kit resolves (${problem})`, guard: true }
      : { problem };
  }
  // Kept by count and characters, as the kit keeps its OpenAPI validations (a larger text is parsed each time).
  if (text.length <= PARSED_YAML_CHARS / 4) {
    parsedYaml.set(text, result);
    let chars = 0;
    for (const k of parsedYaml.keys()) chars += k.length;
    for (const old of parsedYaml.keys()) {
      if (parsedYaml.size <= PARSED_YAML_KEPT && chars <= PARSED_YAML_CHARS) break;
      parsedYaml.delete(old);
      chars -= old.length;
    }
  }
  return result;
}

/**
 * YAML texts parsed before: runs against the same deployment fetch the same files (the yaml package
 * parses about 3 MB a second: a document's two versions were a tenth of a kit run's CPU).
 */
const parsedYaml = new Map<string, YamlRead>();
const PARSED_YAML_KEPT = 8;
const PARSED_YAML_CHARS = 4 * 1024 * 1024;
