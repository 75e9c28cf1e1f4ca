/** One piece of a redacted string: literal text, or the name of the environment variable holding a secret. */
export type RedactedPart = { text: string } | { env: string };

/**
 * Knows the secrets of a run (bearer token, client secret, ...) and the environment variable that
 * stands for each, so evidence and curl commands never carry them.
 * @example const r = createRedactor(); r.add(token, 'NCS_TOKEN'); r.text(`Bearer ${token}`) // 'Bearer $NCS_TOKEN'
 */
export interface Redactor {
  /**
   * Registers a secret; values shorter than 6 characters are ignored (they would redact ordinary words).
   * `leakChecked: false` redacts a secret the deployment legitimately shows once (a webhook's signing
   * key in its creation answer) without making its appearance there a leak.
   */
  add(value: string | undefined, env: string, opts?: { leakChecked?: boolean }): void;
  /** The string with every secret replaced by `$ENV`. */
  text(value: string): string;
  /** The string split into literal parts and secret references (for shell quoting). */
  parts(value: string): RedactedPart[];
  /** Whether the string contains any registered secret. */
  contains(value: string): boolean;
  /** The registered secrets that must never appear in an answer (for leak checks); never print them. */
  secrets(): readonly { value: string; env: string }[];
}

/**
 * Every string inside `value` (objects and arrays walked) with the secrets replaced: reports are
 * redacted once more at the end of a run with every secret it learnt, also those learnt late.
 * @example redactDeep({ failures: [{ response: `{"signingSecret":"${s}"}` }] }, redactor)
 */
export function redactDeep<T>(value: T, redactor: Redactor): T {
  if (typeof value === 'string') return redactor.text(value) as T;
  if (Array.isArray(value)) return value.map((v) => redactDeep(v, redactor)) as T;
  if (value && typeof value === 'object') {
    const out: Record<string, unknown> = {};
    for (const [k, v] of Object.entries(value)) out[k] = redactDeep(v, redactor);
    return out as T;
  }
  return value;
}

export function createRedactor(): Redactor {
  const secrets: { value: string; env: string; leakChecked: boolean }[] = [];
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
    add(value, env, opts = {}) {
      if (!value || value.length < 6) return;
      const leakChecked = opts.leakChecked ?? true;
      const known = secrets.find((s) => s.value === value);
      if (!known) secrets.push({ value, env, leakChecked });
      else if (leakChecked && !known.leakChecked) Object.assign(known, { env, leakChecked });
    },
    text: (value) =>
      parts(value)
        .map((p) => ('text' in p ? p.text : `$${p.env}`))
        .join(''),
    parts,
    contains: (value) => secrets.some((s) => value.includes(s.value)),
    secrets: () => secrets.filter((s) => s.leakChecked).map(({ value, env }) => ({ value, env })),
  };
}
