/**
 * The signature header's form, as the interface gives it (Webhooks): "the header value has the form
 * t=<unix-seconds>,v1=<hex-signature> … written as lowercase hex". That is the whole value: t first,
 * then v1, one comma, no whitespace, lower-case names and hex. A receiver written to that form (e.g.
 * `^t=(\d+),v1=([0-9a-f]{64})$`, which the simulator's client verdicts count as a correct receiver)
 * rejects anything else, so a second v1 (Stripe's key rotation), a v0, a space after the comma or
 * upper-case hex is not a legal choice here: the interface shows no rotation and one exact form.
 */
export const SIGNATURE_FORM = /^t=\d+,v1=[0-9a-f]{64}$/;

type Part = { name: string; value: string };

const partsOf = (value: string): Part[] =>
  value.split(',').map((raw) => {
    const eq = raw.indexOf('=');
    return eq < 0
      ? { name: raw.trim(), value: '' }
      : { name: raw.slice(0, eq).trim(), value: raw.slice(eq + 1).trim() };
  });

/**
 * Whether a header value is meant as the signature, however far it strays from the form: a `t` of
 * digits and a `v1` of 64 hex digits, in any order, case or spacing. Used to find the header (its name
 * is not shown), so that a malformed signature is judged as malformed, not as missing.
 * @example looksSigned('t=1, V1=AB…') // true
 */
export function looksSigned(value: string): boolean {
  if (value.length > 4096) return false;
  const parts = partsOf(value);
  return (
    parts.some((p) => p.name.toLowerCase() === 't' && /^\d+$/.test(p.value)) &&
    parts.some((p) => p.name.toLowerCase() === 'v1' && /^[0-9a-f]{64}$/i.test(p.value))
  );
}

/**
 * How a header value differs from the interface's form, in words (empty: it has the form).
 * @example formProblems('t=1, v1=ab…') // ['whitespace in the value (e.g. after the comma)']
 */
export function formProblems(value: string): string[] {
  if (SIGNATURE_FORM.test(value)) return [];
  const problems: string[] = [];
  const parts = partsOf(value);
  if (/\s/.test(value)) problems.push('whitespace in the value (e.g. after the comma)');
  if (parts.some((p) => p.name !== p.name.toLowerCase())) problems.push('upper-case names (T=, V1=)');
  if (parts[0]?.name.toLowerCase() !== 't' || parts[1]?.name.toLowerCase() !== 'v1')
    problems.push('not t first and v1 second');
  const hex = parts.filter((p) => p.name.toLowerCase() === 'v1').map((p) => p.value);
  if (hex.some((h) => /[A-F]/.test(h))) problems.push('upper-case hex (the interface says lowercase hex)');
  if (hex.some((h) => !/^[0-9a-fA-F]{64}$/.test(h))) problems.push('a v1 that is not 64 hex digits (HMAC-SHA256)');
  if (parts.length > 2) problems.push(`${parts.length - 2} further part(s) after t and v1 (e.g. a second v1 or a v0)`);
  if (problems.length === 0) problems.push('not t=<digits>,v1=<64 lowercase hex digits>');
  return problems;
}

/** The expectation a failure states, one wording for every check that judges the form. */
export const FORM_EXPECTED =
  'the signature header value is exactly t=<unix-seconds>,v1=<64 lowercase hex digits>: no whitespace, no further parts (Webhooks: "the header value has the form t=<unix-seconds>,v1=<hex-signature> … written as lowercase hex")';
