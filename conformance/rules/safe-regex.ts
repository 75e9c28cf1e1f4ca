/**
 * Whether a pattern taken from a deployment's document may be run: JavaScript regexes backtrack, and a
 * quantifier over a group that itself holds a quantifier (star height above 1: `^([a-z]+)+Z$`) or a
 * backreference can take exponential time on a short string, synchronously (no timeout can stop it). This
 * is a small star-height analysis (no dependency); a pattern it refuses is reported as not judged.
 * @example unsafePatternReason('^([A-Za-z0-9._:-]+)+Z$') // 'a quantified group holds a quantifier ...'
 */
export function unsafePatternReason(pattern: string): string | undefined {
  if (/\\[1-9]|\\k</.test(pattern)) return 'it holds a backreference, which can backtrack without bound';
  // One frame per open group: whether something inside it is quantified.
  const stack: { quantified: boolean }[] = [{ quantified: false }];
  let lastGroupQuantified: boolean | undefined; // set right after a group closes
  let inClass = false;
  for (let i = 0; i < pattern.length; i++) {
    const c = pattern[i];
    if (c === '\\') {
      i++;
      lastGroupQuantified = undefined;
      continue;
    }
    if (inClass) {
      if (c === ']') inClass = false;
      continue;
    }
    if (c === '[') {
      inClass = true;
      lastGroupQuantified = undefined;
      continue;
    }
    if (c === '(') {
      stack.push({ quantified: false });
      lastGroupQuantified = undefined;
      continue;
    }
    if (c === ')') {
      const inner = stack.pop() ?? { quantified: false };
      if (stack.length === 0) stack.push({ quantified: false });
      // A group holding a quantifier makes its enclosing group hold one too: `((a+))+` nests as deep.
      const outer = stack[stack.length - 1];
      if (outer && inner.quantified) outer.quantified = true;
      lastGroupQuantified = inner.quantified;
      continue;
    }
    const quantifier = c === '*' || c === '+' || (c === '{' && /^\{\d+(,\d*)?\}/.test(pattern.slice(i)));
    const top = stack[stack.length - 1];
    if (quantifier && top) {
      const bounded = c === '{' && /^\{(\d+)(,(\d+))?\}/.exec(pattern.slice(i));
      const repeats = !bounded || (bounded[3] ?? bounded[1]) !== '1';
      if (repeats && lastGroupQuantified)
        return 'a quantified group holds a quantifier (nested quantifiers can backtrack without bound)';
      if (repeats) top.quantified = true;
    }
    if (c !== '?') lastGroupQuantified = undefined;
  }
  return undefined;
}

/**
 * The regex engine given to every Ajv of the kit (`code.regExp`): a pattern the analysis refuses throws at
 * compile time, so the schema holding it is reported as not compiled (not judged) instead of hanging the run.
 * @example new Ajv2020({ code: { regExp: boundedRegExp } })
 */
export function boundedRegExp(pattern: string, flags: string): RegExp {
  const why = unsafePatternReason(pattern);
  if (why) throw new Error(`pattern ${JSON.stringify(pattern.slice(0, 120))} not run: ${why}`);
  return new RegExp(pattern, flags);
}
boundedRegExp.code = 'new RegExp';
