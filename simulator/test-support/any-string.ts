// Strings of any code point for property tests, lone surrogates included.
import fc from 'fast-check';

/** U+0000 to U+10FFFF, U+D800-U+DFFF included (alone they are lone surrogates; two in a row may pair). */
const anyCodePoint = fc.nat({ max: 0x10ffff }).map((cp) => String.fromCodePoint(cp));

/**
 * Strings made of any code points, lone surrogates included. Used instead of fast-check's
 * `fc.string({ unit: 'binary' })`, which leaves out the surrogates and whose first use in a process builds a
 * table of every code point (~0.8 s of CPU, paid again by each test worker).
 * @example fc.assert(fc.property(anyString(), (s) => jsonString(s) === JSON.stringify(s)));
 */
export const anyString = (constraints: { maxLength?: number } = {}) =>
  fc.string({ unit: anyCodePoint, ...constraints });
