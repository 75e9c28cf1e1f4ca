import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { canonicalJson } from '../../../simulator/contract/canonical-json.ts';
import { discoverEntryHash, type EntryHashRule, entryHashHolds, hashInput, statedFormulas } from './entry-hash.ts';

const sha = (alg: string, text: string, enc: 'hex' | 'base64' | 'base64url') =>
  createHash(alg).update(text).digest(enc);
const RULE: EntryHashRule = { field: 'hash', algorithm: 'sha256', encoding: 'hex', input: '{@canonical}', exclude: [] };

/** A chain of entries hashed as `${prev}.${canonical JSON without digest}`, base64url, like a deployment might. */
function dotted(n: number) {
  const out: Record<string, unknown>[] = [];
  let prev = '0'.repeat(64);
  for (let seq = 1; seq <= n; seq++) {
    const body = { seq, action: 'connection.create', target: { id: `c${seq}` }, prev_digest: prev };
    const digest = sha('sha256', `${prev}.${canonicalJson(body)}`, 'base64url');
    out.push({ ...body, digest });
    prev = digest;
  }
  return out.reverse();
}

describe('an audit entry hash rule', () => {
  it('renders a template of fields, nested paths and the canonical entry without its hash', () => {
    const e = { seq: 2, prev: 'ab', target: { id: 'c1' }, hash: 'x', extra: null };
    expect(hashInput(e, { ...RULE, input: '{prev}|{seq}|{target.id}|{missing}' })).toBe('ab|2|c1|');
    expect(hashInput(e, { ...RULE, input: '{target}' })).toBe('{"id":"c1"}');
    expect(hashInput(e, { ...RULE, exclude: ['target.id', 'extra'] })).toBe('{"prev":"ab","seq":2,"target":{}}');
  });

  it('holds hex whatever its case and base64 with or without padding, and fails an altered entry', () => {
    const body = { seq: 1, actor: 'a' };
    const hex = sha('sha256', canonicalJson(body), 'hex');
    expect(entryHashHolds({ ...body, hash: hex.toUpperCase() }, RULE)).toBe(true);
    expect(entryHashHolds({ ...body, actor: 'b', hash: hex }, RULE)).toBe(false);
    const b64 = sha('sha512', canonicalJson(body), 'base64');
    const rule = { ...RULE, algorithm: 'sha512', encoding: 'base64' } as const;
    expect(entryHashHolds({ ...body, hash: b64.replace(/=+$/, '') }, rule)).toBe(true);
    expect(entryHashHolds({ ...body, hash: 42 }, rule)).toBe(false);
  });

  it('finds a common formula from the entries, and counts the entries it recomputes', () => {
    const entries = dotted(6);
    const found = discoverEntryHash(entries);
    expect(found?.rule).toMatchObject({ field: 'digest', input: '{prev_digest}.{@canonical}', encoding: 'base64url' });
    expect(found?.held).toBe(6);
    // One entry altered after it was hashed: the formula still found by the others, the entry not recomputed.
    const altered = entries.map((e, i) => (i === 0 ? { ...e, action: 'connection.delete' } : e));
    expect(discoverEntryHash(altered)?.held).toBe(5);
  });

  it('finds a Merkle leaf over the entry without its proof parts, and a chain that leaves its link out', () => {
    const leaves = [1, 2, 3].map((seq) => {
      const body = { seq, actor: 'a' };
      const leafHash = createHash('sha256')
        .update(`\u0000${canonicalJson(body)}`)
        .digest('hex');
      return { ...body, leafIndex: seq - 1, leafHash, auditPath: ['ab'] };
    });
    expect(discoverEntryHash(leaves)?.rule).toMatchObject({ field: 'leafHash', exclude: ['leafIndex', 'auditPath'] });
    expect(discoverEntryHash(leaves)?.held).toBe(3);
    const linked = [1, 2, 3].map((seq) => {
      const body = { seq, actor: 'a' };
      const parentDigest = 'p'.repeat(seq);
      return { ...body, parentDigest, digest: sha('sha256', `${parentDigest}\n${canonicalJson(body)}`, 'base64') };
    });
    expect(discoverEntryHash(linked)?.rule).toMatchObject({ encoding: 'base64', exclude: ['parentDigest'] });
  });

  it('tells canonical JSON from top-level-sorted JSON over every entry, and reads JSON in its served order', () => {
    // Nested members left in their order: the first entries (flat) agree with RFC 8785, later ones do not.
    const sortedTop = (o: Record<string, unknown>) =>
      JSON.stringify(Object.fromEntries(Object.entries(o).sort(([a], [b]) => (a < b ? -1 : 1))));
    const entries = [1, 2, 3, 4, 5, 6, 7, 8].map((seq) => {
      const body = { seq, changes: seq > 5 ? { z: 1, a: 2 } : {} };
      return { ...body, hash: sha('sha256', sortedTop(body), 'hex') };
    });
    expect(discoverEntryHash(entries)).toMatchObject({ rule: { input: '{@sorted}' }, held: 8 });
    const served = { zeta: 1, alpha: 2 };
    const rule = { ...RULE, input: '{@json}' };
    expect(entryHashHolds({ ...served, hash: sha('sha256', JSON.stringify(served), 'hex') }, rule)).toBe(true);
  });

  it('writes the entry as Swift and PHP encoders do (escaped slashes, escaped non-ASCII), and finds those formulas', () => {
    const e = { at: '2026-07-01', url: 'https://hooks.example/a', venue: 'Café', digest: 'x' };
    expect(hashInput(e, { ...RULE, field: 'digest', input: '{@canonical:slashes}' })).toBe(
      '{"at":"2026-07-01","url":"https:\\/\\/hooks.example\\/a","venue":"Café"}',
    );
    expect(hashInput(e, { ...RULE, field: 'digest', input: '{@json:slashes:ascii}' })).toBe(
      '{"at":"2026-07-01","url":"https:\\/\\/hooks.example\\/a","venue":"Caf\\u00e9"}',
    );
    // PHP: json_encode of the entry as built (its own order), slashes and non-ASCII escaped.
    const php = (n: number) => {
      const body = { seq: n, url: `https://hooks.example/r/${n}`, venue: 'Zürich Süd' };
      const text = JSON.stringify(body)
        .replace(/\//g, '\\/')
        .replace(/[\u0080-\uffff]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`);
      return { ...body, hash: sha('sha256', text, 'hex') };
    };
    const found = discoverEntryHash([1, 2, 3, 4].map(php));
    expect(found?.rule.input).toBe('{@json:slashes:ascii}');
    expect(found?.held).toBe(4);
  });

  it("writes the entry as Python's json.dumps does (', ' and ': ' outside strings), and finds that formula", () => {
    const e = { seq: 1, note: 'a, b: c', venue: 'Café', hash: 'x' };
    expect(hashInput(e, { ...RULE, input: '{@canonical:spaced:ascii}' })).toBe(
      '{"note": "a, b: c", "seq": 1, "venue": "Caf\\u00e9"}',
    );
    // json.dumps(entry, sort_keys=True) of each entry, a null first link (locust's Python-spaced chain).
    const python = (n: number) => {
      const body = { action: 'connection.created', prev_hash: n === 1 ? null : `h${n - 1}`, seq: n };
      return { ...body, hash: sha('sha256', JSON.stringify(body).replace(/([,:])/g, '$1 '), 'hex') };
    };
    const found = discoverEntryHash([1, 2, 3, 4].map(python));
    expect(found?.rule.input).toBe('{@canonical:spaced:ascii}');
    expect(found?.held).toBe(4);
  });

  it('reads a formula the answer states in field names, and tries it', () => {
    const entries = [3, 2, 1].map((sequence) => {
      const body = { sequence, previousHash: `p${sequence}`, action: 'connection.create' };
      return { ...body, hash: sha('sha256', `${body.previousHash}|${sequence}|${body.action}`, 'base64') };
    });
    const data = { entries, proof: { entryHashInput: 'previousHash|sequence|action', algorithm: 'SHA-256' } };
    const stated = statedFormulas(data, entries);
    expect(stated).toEqual(['{previousHash}|{sequence}|{action}']);
    expect(discoverEntryHash(entries)).toBeUndefined();
    expect(discoverEntryHash(entries, stated)).toMatchObject({ rule: { input: stated[0] }, held: 3 });
    expect(statedFormulas({ proof: { note: 'sha256 of the entry' } }, entries)).toEqual([]);
    expect(statedFormulas({ proof: { canonical_string: '{previousHash}\n{sequence}' } }, entries)).toContain(
      '{previousHash}\n{sequence}',
    );
    expect(statedFormulas({ proof: { canonical_string: '{unknown}|{sequence}' } }, entries)).toEqual([]);
  });

  it('finds nothing in keyed digests (an HMAC) or entries without a hash field', () => {
    const keyed = [1, 2, 3].map((seq) => ({ seq, mac: createHash('sha256').update(`secret${seq}`).digest('hex') }));
    expect(discoverEntryHash(keyed)).toBeUndefined();
    expect(discoverEntryHash([{ seq: 1, actor: 'a' }])).toBeUndefined();
    expect(discoverEntryHash([])).toBeUndefined();
  });
  it('reads a null field of a template as each language writes it: "null", nothing, "None" or "nil"', () => {
    const rule = { ...RULE, input: '{prev}|{seq}' };
    for (const written of ['null', '', 'None', 'nil']) {
      const entry = { seq: 1, prev: null, hash: sha('sha256', `${written}|1`, 'hex') };
      expect(entryHashHolds(entry, rule)).toBe(true);
    }
    expect(entryHashHolds({ seq: 1, prev: null, hash: sha('sha256', 'undefined|1', 'hex') }, rule)).toBe(false);
  });
});
