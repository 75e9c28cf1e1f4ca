/** One piece of a redacted string: literal text, or the name of the environment variable holding a secret. */
export type RedactedPart = { text: string } | { env: string };

/**
 * Knows the secrets of a run (bearer token, client secret, ...) and the environment variable that
 * stands for each, so evidence and curl commands never carry them.
 * @example const r = createRedactor(); r.add(token, 'NCS_TOKEN'); r.text(`Bearer ${token}`) // 'Bearer $NCS_TOKEN'
 */
export interface Redactor {
  /** Registers a secret; values shorter than 6 characters are ignored (they would redact ordinary words). */
  add(value: string | undefined, env: string): void;
  /** The string with every secret replaced by `$ENV`. */
  text(value: string): string;
  /** The string split into literal parts and secret references (for shell quoting). */
  parts(value: string): RedactedPart[];
  /** Whether the string contains any registered secret. */
  contains(value: string): boolean;
  /** The registered secrets (for leak checks); never print them. */
  secrets(): readonly { value: string; env: string }[];
}

export function createRedactor(): Redactor {
  const secrets: { value: string; env: string }[] = [];
  const parts = (value: string): RedactedPart[] => {
    let out: RedactedPart[] = [{ text: value }];
    // Longest first, so a secret that contains another is replaced whole.
    for (const s of [...secrets].sort((a, b) => b.value.length - a.value.length)) {
      out = out.flatMap((p) => {
        if (!('text' in p) || !p.text.includes(s.value)) return [p];
        const pieces = p.text.split(s.value);
        return pieces
          .flatMap((text, i) => (i === 0 ? [{ text }] : [{ env: s.env }, { text }]))
          .filter((x) => !('text' in x) || x.text !== '');
      });
    }
    return out;
  };
  return {
    add(value, env) {
      if (value && value.length >= 6 && !secrets.some((s) => s.value === value)) secrets.push({ value, env });
    },
    text: (value) =>
      parts(value)
        .map((p) => ('text' in p ? p.text : `$${p.env}`))
        .join(''),
    parts,
    contains: (value) => secrets.some((s) => value.includes(s.value)),
    secrets: () => secrets,
  };
}
