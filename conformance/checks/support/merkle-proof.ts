// An audit log whose proof of integrity is a Merkle tree (Certificate Transparency's, RFC 9162 / RFC 6962):
// each entry with its leaf hash, its index and an inclusion proof, the page with the tree's root and size.
// The interface shows no proof format ("Response fields ... not shown"), so the kit recognises this shape
// by its parts and verifies each inclusion proof against the root (RFC 9162 §2.1.3.2): a root or proof
// edited after the fact no longer verifies.
import { createHash } from 'node:crypto';

type Json = Record<string, unknown>;
const isObject = (v: unknown): v is Json => !!v && typeof v === 'object' && !Array.isArray(v);

/** One entry's inclusion proof, read from the answer. */
export interface Inclusion {
  index: number;
  leafHash: Buffer;
  path: Buffer[];
  /** The tree the proof is for: the entry's own size and root when it carries them, else the page's. */
  treeSize: number;
  root: Buffer;
}

/** A 32-byte digest written as hex (either case) or base64/base64url; undefined for anything else. */
export function digestBytes(v: unknown): Buffer | undefined {
  if (typeof v !== 'string') return undefined;
  const text = v.replace(/^sha-?256:/i, '');
  if (/^[0-9a-f]{64}$/i.test(text)) return Buffer.from(text, 'hex');
  if (/^[A-Za-z0-9+/_-]{43}=?$/.test(text)) {
    const b = Buffer.from(text.replace(/-/g, '+').replace(/_/g, '/'), 'base64');
    return b.length === 32 ? b : undefined;
  }
  return undefined;
}

/** The value of the first name matched, in the order given (a `leafIndex` before a plain `index`). */
const field = (o: Json, names: readonly RegExp[]) => {
  for (const re of names) {
    const hit = Object.entries(o).find(([k]) => re.test(k));
    if (hit) return hit[1];
  }
  return undefined;
};
const ROOT = [/^(?:merkle[-_]?root|root[-_]?hash|tree[-_]?root|sth[-_]?root)$/i, /^root$/i];
const SIZE = [/^tree[-_]?size$/i, /^size$/i];
const LEAF_HASH = [/^(?:leaf[-_]?hash|merkle[-_]?leaf)$/i, /^leaf$/i];
const INDEX = [/^leaf[-_]?index$/i, /^(?:index|position)$/i];
const ENTRY_HASH = [/^(?:entry[-_]?)?hash$/i, /^digest$/i];
const PATH = [/^(?:inclusion[-_]?proof|audit[-_]?path|inclusion[-_]?path|merkle[-_]?proof)$/i, /^proof$/i];

/** The tree's root and size where a record (the page, its proof object, an entry) states them. */
function treeOf(o: Json): { root: Buffer; size: number } | undefined {
  for (const where of [o, ...Object.values(o).filter(isObject)]) {
    const root = digestBytes(field(where, ROOT));
    const size = whole(field(where, SIZE));
    if (root && size !== undefined && size > 0) return { root, size };
  }
  return undefined;
}

/** A whole number, or one written as a string of digits (proto3 JSON writes 64-bit integers so). */
function whole(v: unknown): number | undefined {
  const n = typeof v === 'string' && /^\d{1,15}$/.test(v) ? Number(v) : v;
  return typeof n === 'number' && Number.isSafeInteger(n) ? n : undefined;
}

/** A list of digests under another name: an inclusion path found by its shape. */
const digestList = (o: Json) =>
  Object.values(o).find((v) => Array.isArray(v) && v.length > 0 && v.every((x) => digestBytes(x) !== undefined));

/**
 * The entries' inclusion proofs, when the answer has the Merkle shape (a root and size, and entries each
 * with a leaf hash, an index and a list of digests); undefined when it does not.
 * @example merkleInclusions(data, entries)?.length // 50
 */
export function merkleInclusions(data: unknown, entries: readonly unknown[]): Inclusion[] | undefined {
  const stated = inclusions(data, entries, false);
  if (stated) return stated;
  // No leaf hash shown: RFC 9162's leaf over the entry's own hash (0x00 || its bytes), taken only where it proves
  // an entry (the leaf's input is not shown; another construction stays unjudged, as before).
  const derived = inclusions(data, entries, true);
  return derived?.some(verifyInclusion) ? derived : undefined;
}

/** An entry's own hash (its digest field) as RFC 9162's leaf: SHA-256 of 0x00 and its bytes. */
const leafOfEntryHash = (parts: Json[]) => {
  const own = parts.map((p) => digestBytes(field(p, ENTRY_HASH))).find(Boolean);
  return (
    own &&
    createHash('sha256')
      .update(Buffer.from([0]))
      .update(own)
      .digest()
  );
};

/** Objects of `o` down to `depth` levels (o first): where a page states its tree or lists proofs apart. */
function objectsIn(o: Json, depth: number): Json[] {
  const inner = Object.values(o).filter(isObject);
  return depth <= 0 ? [o] : [o, ...inner.flatMap((x) => objectsIn(x, depth - 1))];
}

/** Inclusion proofs listed beside the entries (`proof.merkle.inclusions`), each with an index and a path. */
function proofsBeside(data: Json): Json[] {
  for (const o of objectsIn(data, 3))
    for (const v of Object.values(o))
      if (
        Array.isArray(v) &&
        v.length > 0 &&
        v.every((x) => isObject(x) && whole(field(x, INDEX)) !== undefined && Array.isArray(field(x, PATH)))
      )
        return v as Json[];
  return [];
}

/** The proof listed apart that names `e` by a value they share (its `seq`, its `id`). */
const proofOf = (e: Json, beside: readonly Json[]) =>
  beside.find((p) =>
    Object.entries(p).some(
      ([k, v]) => (typeof v === 'string' || typeof v === 'number') && !INDEX.some((re) => re.test(k)) && e[k] === v,
    ),
  );

function inclusions(data: unknown, entries: readonly unknown[], derive: boolean): Inclusion[] | undefined {
  if (!isObject(data)) return undefined;
  const page = objectsIn(data, 2).map(treeOf).find(Boolean);
  const beside = proofsBeside(data);
  const out: Inclusion[] = [];
  for (const e of entries) {
    if (!isObject(e)) return undefined;
    // The proof may sit in the entry, in an object of it (entry.proof.{leafIndex, auditPath}), or in a list beside
    // the entries that names it.
    const apart = proofOf(e, beside);
    const parts = [e, ...Object.values(e).filter(isObject), ...(apart ? [apart] : [])];
    const leafHash = derive ? leafOfEntryHash(parts) : parts.map((p) => digestBytes(field(p, LEAF_HASH))).find(Boolean);
    const index = parts.map((p) => whole(field(p, INDEX))).find((v) => v !== undefined);
    const list = parts.map((p) => field(p, PATH)).find(Array.isArray) ?? parts.map(digestList).find(Array.isArray);
    const path = list?.map(digestBytes);
    const tree = parts.map(treeOf).find(Boolean) ?? page;
    if (!leafHash || index === undefined || !path || !tree) return undefined;
    if (path.some((p) => p === undefined)) return undefined;
    out.push({ index, leafHash, path: path as Buffer[], treeSize: tree.size, root: tree.root });
  }
  return out.length ? out : undefined;
}

const node = (left: Buffer, right: Buffer) =>
  createHash('sha256')
    .update(Buffer.from([1]))
    .update(left)
    .update(right)
    .digest();

/**
 * RFC 9162 §2.1.3.2: whether `path` proves the leaf at `index` in the tree of `treeSize` leaves with `root`.
 * @example verifyInclusion({ index: 0, treeSize: 1, leafHash: h, path: [], root: h }) // true
 */
export function verifyInclusion(p: Inclusion): boolean {
  if (p.index < 0 || p.index >= p.treeSize) return false;
  let fn = p.index;
  let sn = p.treeSize - 1;
  let r = p.leafHash;
  for (const step of p.path) {
    if (sn === 0) return false;
    if (fn % 2 === 1 || fn === sn) {
      r = node(step, r);
      if (fn % 2 === 0) while (fn % 2 === 0 && fn !== 0) [fn, sn] = [fn >> 1, sn >> 1];
    } else r = node(r, step);
    [fn, sn] = [Math.floor(fn / 2), Math.floor(sn / 2)];
  }
  return sn === 0 && r.equals(p.root);
}

/**
 * RFC 9162 §2.1.1: the root of the tree over these leaf hashes, oldest first (at least one).
 * @example treeRoot([h]) // h
 */
export function treeRoot(leaves: readonly Buffer[]): Buffer {
  if (leaves.length === 1) return leaves[0] as Buffer;
  const k = 2 ** Math.floor(Math.log2(leaves.length - 1));
  return node(treeRoot(leaves.slice(0, k)), treeRoot(leaves.slice(k)));
}

/** The tree a page states (its root and size) and the leaf hash of each entry, where both are shown. */
export function statedTree(
  data: unknown,
  entries: readonly unknown[],
): { root: Buffer; size: number; leaves: (Buffer | undefined)[] } | undefined {
  const tree = isObject(data) ? treeOf(data) : undefined;
  if (!tree) return undefined;
  const leaves = entries.map((e) =>
    isObject(e)
      ? [e, ...Object.values(e).filter(isObject)].map((p) => digestBytes(field(p, LEAF_HASH))).find(Boolean)
      : undefined,
  );
  return leaves.some(Boolean) ? { ...tree, leaves } : undefined;
}

/** A text in the answer naming RFC 9162/6962 or Certificate Transparency as its scheme: the deployment's word. */
export function declaresRfc9162(data: unknown, depth = 0): boolean {
  if (typeof data === 'string') return /rfc ?-?(?:9162|6962)|certificate.?transparency/i.test(data);
  if (depth > 3 || !data || typeof data !== 'object') return false;
  return Object.values(data).some((v) => declaresRfc9162(v, depth + 1));
}
