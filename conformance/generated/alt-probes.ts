import fc from 'fast-check';
import { draw } from './draw.ts';
import type { Probe } from './probes.ts';

/** The value a probe sets (a body field's, a header's or a query parameter's). */
const probedValue = (p: Probe): unknown => p.body?.[p.field] ?? p.headers[p.field] ?? p.query[p.field];

/** A probe's kind without its field and numbers: `scopeLabel.length-121` and `.length-1` are one kind. */
const kindOf = (p: Probe) => p.id.slice(p.field.length + 1).replace(/\d+/g, 'N');

/**
 * The probes sent again in another place: at the alternate address ("the same interface" is offered there, so
 * a second address routed to another build, with other limits, another enum reader or a normaliser of its
 * own, refuses what the first refuses) or under the earlier version ("no change that requires adaptation of
 * clients"). One refused probe of each kind, drawn by the seed (runs cover the rest), with an
 * Idempotency-Key of its own where the key is not the value probed.
 * @example altSample(probes, 7).map((p) => p.id) // ['environment.other-case@alt', 'scopeLabel.length-121@alt', …]
 */
export function altSample(
  probes: readonly Probe[],
  seed: number,
  place: { what: string; tag: string } = { what: 'at the alternate address', tag: 'alt' },
): Probe[] {
  const byKind = new Map<string, Probe[]>();
  // Every refused kind, and the accepted boundary lengths of a text (a place whose limit is off by one refuses them;
  // a list's counts are left out: a list of one value repeated may be read as a set, see refusesRepeats).
  const kind = (p: Probe) =>
    p.expect.accepted === false
      ? kindOf(p)
      : p.expect.accepted === true && kindOf(p) === 'length-N' && typeof probedValue(p) === 'string'
        ? 'ok:length'
        : undefined;
  for (const p of probes) {
    const k = kind(p);
    if (k) byKind.set(k, [...(byKind.get(k) ?? []), p]);
  }
  return [...byKind].map(([kind, of]) => {
    const [p] = draw(fc.constantFrom(...of), seed, `${place.tag}.${kind}`);
    const picked = p ?? (of[0] as Probe);
    const key = picked.headers['Idempotency-Key'];
    const headers =
      key !== undefined && picked.field !== 'Idempotency-Key'
        ? { ...picked.headers, 'Idempotency-Key': `${key.slice(0, 127 - place.tag.length)}.${place.tag}` }
        : picked.headers;
    return { ...picked, id: `${picked.id}@${place.tag}`, headers, rule: `${place.what} too: ${picked.rule}` };
  });
}
