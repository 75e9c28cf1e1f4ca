import { createHash } from 'node:crypto';
import { canonicalJson } from '../../../simulator/contract/canonical-json.ts';
import type { HASH_ALGORITHMS } from '../../runner/deployment-profile.ts';

// An audit entry's own hash, recomputed from the entry as served. The interface shows no proof format
// ("Response fields and further parameters: not shown"), so the formula is the deployment's: declared in
// its profile (auditEntryHash), or found among the common ones below. A formula is a template over the
// entry's fields: `{seq}` is a field's value (dotted paths reach nested ones, objects as canonical JSON),
// `{@canonical}` the RFC 8785 JSON of the entry without its hash field and the fields `exclude` names,
// `{@sorted}` that entry's JSON with its top-level members sorted only, `{@json}` in the order it was served;
// `:slashes` and `:ascii` after either write it as Swift and PHP encoders do (`{@canonical:slashes}`), `:spaced`
// with Python's default separators (`{@canonical:spaced:ascii}` is `json.dumps(entry, sort_keys=True)`).

export type HashAlgorithm = (typeof HASH_ALGORITHMS)[number];
export type HashEncoding = 'hex' | 'base64' | 'base64url';

export interface EntryHashRule {
  /** The entry's field that carries its own hash (a dotted path). */
  field: string;
  algorithm: HashAlgorithm;
  encoding: HashEncoding;
  /** What is hashed, e.g. '{@canonical}' or '{prevHash}|{seq}|{at}|{action}'. */
  input: string;
  /** Further fields left out of `{@canonical}` (the hash field always is). */
  exclude: readonly string[];
}

type Entry = Record<string, unknown>;

function at(entry: unknown, path: string): unknown {
  let v: unknown = entry;
  for (const part of path.split('.')) v = v && typeof v === 'object' ? (v as Entry)[part] : undefined;
  return v;
}

function without(entry: Entry, paths: readonly string[]): Entry {
  const copy: Entry = structuredClone(entry);
  for (const path of paths) {
    const parts = path.split('.');
    const last = parts.pop() as string;
    const parent = parts.length ? at(copy, parts.join('.')) : copy;
    if (parent && typeof parent === 'object') delete (parent as Entry)[last];
  }
  return copy;
}

/**
 * How a field that is null reads in a template: JavaScript and Java write "null"; Lua's `x or ""`, Ruby's
 * `to_s` and Go's zero value write nothing; Python's `str` writes "None"; Lua's `tostring` "nil". The
 * interface shows no proof format, so each is the deployment's to choose: the entry holds under any.
 */
export const NULL_TEXTS = ['null', '', 'None', 'nil'] as const;

const text = (v: unknown, nullAs: string): string =>
  v === undefined
    ? ''
    : v === null
      ? nullAs
      : typeof v === 'string'
        ? v
        : typeof v === 'object'
          ? canonicalJson(v)
          : String(v);

/**
 * Compact JSON with Python's default separators (`json.dumps`: ", " and ": "), outside strings only.
 * @example spaced('{"a":[1,"x,y"]}') // '{"a": [1, "x,y"]}'
 */
function spaced(json: string): string {
  let out = '';
  let inString = false;
  for (let i = 0; i < json.length; i++) {
    const c = json[i] as string;
    out += c;
    if (inString) {
      if (c === '\\') out += json[++i] ?? '';
      else if (c === '"') inString = false;
    } else if (c === '"') inString = true;
    else if (c === ',' || c === ':') out += ' ';
  }
  return out;
}

/**
 * JSON as other encoders write it: `spaced` uses Python's default separators, `slashes` escapes `/` as `\/` (Swift's JSONEncoder, PHP's json_encode by
 * default), `ascii` writes every character beyond ASCII as `\uXXXX` (PHP's default, Python's ensure_ascii).
 */
function escaped(json: string, mods: readonly string[]): string {
  let out = mods.includes('spaced') ? spaced(json) : json;
  if (mods.includes('slashes')) out = out.replace(/\//g, '\\/');
  if (mods.includes('ascii'))
    out = out.replace(/[\u0080-\uffff]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`);
  return out;
}

/**
 * The text a rule hashes for one entry.
 * @example hashInput({ seq: 2, prev: 'ab', hash: 'cd' }, { ...rule, input: '{prev}|{seq}' }) // 'ab|2'
 */
export function hashInput(entry: Entry, rule: EntryHashRule, nullAs: string = NULL_TEXTS[0]): string {
  return rule.input.replace(/\{([^{}]+)\}/g, (_, name: string) => {
    const [base, ...mods] = name.split(':');
    if (base === '@canonical' || base === '@json' || base === '@sorted')
      return escaped(wholeText(entry, rule, base), mods);
    return text(at(entry, name), nullAs);
  });
}

/**
 * The entry without its hash field (and the rule's exclusions) as `@canonical`, `@json` or `@sorted` writes it,
 * kept per entry: the kit tries many formulas, each with every way of writing null, on the same entries.
 */
function wholeText(entry: Entry, rule: EntryHashRule, base: '@canonical' | '@json' | '@sorted'): string {
  const key = `${base}\0${rule.field}\0${rule.exclude.join('\0')}`;
  let known = wholeTexts.get(entry);
  if (!known) {
    known = new Map();
    wholeTexts.set(entry, known);
  }
  let out = known.get(key);
  if (out === undefined) {
    const whole = without(entry, [rule.field, ...rule.exclude]);
    // The entry's RFC 8785 JSON, its JSON in the order it was served, or with only its top-level members sorted.
    out =
      base === '@canonical'
        ? canonicalJson(whole)
        : base === '@json'
          ? JSON.stringify(whole)
          : JSON.stringify(Object.fromEntries(Object.entries(whole).sort(([a], [b]) => (a < b ? -1 : 1))));
    known.set(key, out);
  }
  return out;
}
const wholeTexts = new WeakMap<Entry, Map<string, string>>();

/**
 * Whether an entry's own hash is what its rule recomputes (hex compared without regard to case).
 * @example entryHashHolds({ seq: 1, hash: sha256Hex('{"seq":1}') }, { field: 'hash', algorithm: 'sha256', encoding: 'hex', input: '{@canonical}', exclude: [] }) // true
 */
export function entryHashHolds(entry: Entry, rule: EntryHashRule): boolean {
  const shown = at(entry, rule.field);
  if (typeof shown !== 'string') return false;
  // A template naming a null field is tried with each way of writing null (one input when none is null).
  const inputs = new Set(NULL_TEXTS.map((nullAs) => hashInput(entry, rule, nullAs)));
  return [...inputs].some((input) => {
    const digest = createHash(rule.algorithm).update(input, 'utf8').digest(rule.encoding);
    if (rule.encoding === 'hex') return shown.toLowerCase() === digest;
    // base64 written with or without its padding
    return shown.replace(/=+$/, '') === digest.replace(/=+$/, '');
  });
}

/**
 * An entry's own hash: hash, digest, checksum or mac, alone or after a word for the entry (entry, record, row,
 * item, line, block, log) or own, this, leaf.
 */
export const HASH = /^(?:(?:entry|record|row|item|line|block|log|own|this|leaf)[-_]?)?(hash|digest|checksum|mac)$/i;
/** Its link to the previous entry's (previousRowMac beside rowMac). */
export const PREV =
  /^(?:prev|previous|parent|preceding)(?:[-_]?(?:entry|record|row|item|line|block|log))?(?:[-_]?(hash|digest|checksum|mac))?$/i;

/** An entry's proof fields beside its content (a Merkle leaf's index and path, a tree's size and root). */
const PROOF_PART =
  /^(?:leaf[-_]?index|index|position|inclusion[-_]?proof|audit[-_]?path|inclusion[-_]?path|merkle[-_]?proof|proof|tree[-_]?size|root[-_]?hash|merkle[-_]?root)$/i;

/** The algorithms and encoding a digest's written form allows (64 hex: sha256 or sha3-256, hex; 86 base64url: sha512 or sha3-512). */
function formsOf(v: string): { algorithm: HashAlgorithm; encoding: HashEncoding }[] {
  const bytes = /^[0-9a-f]+$/i.test(v) ? v.length / 2 : Math.floor((v.replace(/=+$/, '').length * 3) / 4);
  const size = ({ 32: '256', 48: '384', 64: '512' } as const)[bytes as 32 | 48 | 64];
  if (!size) return [];
  const encoding: HashEncoding = /^[0-9a-f]+$/i.test(v)
    ? 'hex'
    : /[-_]/.test(v) || !/[+/=]/.test(v)
      ? 'base64url'
      : 'base64';
  return [
    { algorithm: `sha${size}`, encoding },
    { algorithm: `sha3-${size}`, encoding },
  ];
}

/**
 * The whole entry as the common encoders write it: RFC 8785, top-level members sorted, as served; and as Swift
 * (`.sortedKeys`: every level sorted, slashes escaped) and PHP (`json_encode`: slashes and non-ASCII escaped) do.
 */
const WHOLES = [
  '{@canonical}',
  '{@sorted}',
  '{@json}',
  '{@canonical:slashes}',
  '{@json:slashes}',
  '{@json:slashes:ascii}',
  '{@sorted:slashes:ascii}',
  // Python's json.dumps, sort_keys or not (its default separators, non-ASCII escaped).
  '{@canonical:spaced:ascii}',
  '{@json:spaced:ascii}',
];

/**
 * The common formulas for an entry: its own hash (any field named like one) over the canonical JSON of the
 * entry without it (and without its link or its Merkle proof's parts, where it has them), alone, after an
 * RFC 6962 leaf's 0x00 byte, or after the previous hash and a separator.
 */
function candidates(entry: Entry, stated: readonly string[] = []): EntryHashRule[] {
  const keys = Object.keys(entry);
  const prev = keys.find((k) => PREV.test(k));
  const proofParts = keys.filter((k) => PROOF_PART.test(k) || (HASH.test(k) && typeof entry[k] === 'string'));
  const rules: EntryHashRule[] = [];
  for (const field of keys.filter((k) => HASH.test(k) && typeof entry[k] === 'string')) {
    const others = proofParts.filter((k) => k !== field);
    // All the proof's parts left out, or one of them (an entry's `index` may be hashed content while its
    // `auditPath` is not: ironwood).
    const excludes = [
      [],
      ...(others.length ? [others] : []),
      ...(others.length > 1 ? others.map((o) => [o]) : []),
      ...(prev ? [[prev], [...others, prev]] : []),
    ];
    const inputs = [...stated, ...WHOLES].flatMap((whole) => [
      whole,
      `\u0000${whole}`,
      ...(prev ? ['', '.', '|', '\n', ':'].map((sep) => `{${prev}}${sep}${whole}`) : []),
    ]);
    for (const form of formsOf(entry[field] as string))
      for (const exclude of excludes)
        for (const input of inputs) rules.push({ field, ...form, input, exclude: [...new Set(exclude)] });
  }
  return rules;
}

/**
 * The common formula that recomputes the most entries (at least one), or undefined.
 * @example discoverEntryHash(entries) // { field: 'hash', algorithm: 'sha256', encoding: 'hex', input: '{@canonical}', exclude: [] }
 */
export function discoverEntryHash(
  entries: readonly unknown[],
  stated: readonly string[] = [],
): { rule: EntryHashRule; held: number } | undefined {
  const records = entries.filter((e): e is Entry => !!e && typeof e === 'object' && !Array.isArray(e));
  const first = records[0];
  if (!first) return undefined;
  // A formula is tried on a few entries, so one altered entry at the top does not hide it; the ones that hold
  // as often there are told apart over every entry (canonical JSON and top-level-sorted JSON agree on flat
  // entries and part on nested ones).
  const sample = records.slice(0, 5);
  const scored = candidates(first, stated).map((rule) => ({
    rule,
    held: sample.filter((e) => entryHashHolds(e, rule)).length,
  }));
  const top = Math.max(0, ...scored.map((c) => c.held));
  if (top === 0) return undefined;
  let best: { rule: EntryHashRule; held: number } | undefined;
  for (const { rule } of scored.filter((c) => c.held === top)) {
    const held = records.filter((e) => entryHashHolds(e, rule)).length;
    if (!best || held > best.held) best = { rule, held };
    if (held === records.length) break;
  }
  return best;
}

/**
 * Formulas an answer states in words the kit can read: a text naming two or more of the entries' fields
 * joined by one separator (`previousHash|sequence|occurredAt|action`), as a template of those fields, or a
 * template in the profile's own syntax (`{seq}|{at}|{action}`).
 * @example statedFormulas({ proof: { entryHashInput: 'prev|seq|at' } }, [{ prev: 'a', seq: 1, at: 't' }]) // ['{prev}|{seq}|{at}']
 */
export function statedFormulas(data: unknown, entries: readonly unknown[]): string[] {
  const first = entries[0];
  if (!first || typeof first !== 'object') return [];
  const fields = new Set(Object.keys(first));
  const out = new Set<string>();
  const walk = (v: unknown, depth: number) => {
    if (typeof v === 'string' && v.length <= 400) {
      // A template in the kit's own syntax (`{seq}|{at}|{action}`): every placeholder a field of the entries.
      const names = [...v.matchAll(/\{([^{}]+)\}/g)].map((m) => m[1] as string);
      if (names.length && names.every((n) => n === '@canonical' || fields.has(n.split('.')[0] as string))) out.add(v);
      for (const sep of ['|', '\n', ':', ',', '.', ' ']) {
        const names = v.split(sep).map((n) => n.trim());
        if (names.length >= 2 && names.every((n) => fields.has(n))) out.add(names.map((n) => `{${n}}`).join(sep));
      }
    } else if (v && typeof v === 'object' && depth < 4 && v !== entries)
      for (const x of Array.isArray(v) ? v : Object.values(v)) if (x !== first) walk(x, depth + 1);
  };
  walk(data, 0);
  return [...out];
}
