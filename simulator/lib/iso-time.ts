let lastMs = Number.NaN;
let lastIso = '';
// The text up to the seconds ("2026-11-25T15:04:05.") of the second starting at secondMs.
let secondMs = Number.NaN;
let secondText = '';

const MS = ['00', '0', ''];

/**
 * `new Date(ms).toISOString()`, remembered for the last millisecond asked and built from the last
 * second asked: under load many calls share a millisecond (envelope `at`, createdAt, audit entries)
 * and nearly all share a second with the previous call, while toISOString costs ~1 µs on this
 * machine's loaded cores (a connection's creation and activation ask for ~5 different times).
 * @example isoTime(0) === '1970-01-01T00:00:00.000Z'
 */
export function isoTime(ms: number): string {
  if (ms === lastMs) return lastIso;
  const sub = ms - secondMs;
  if (sub >= 0 && sub < 1000 && Number.isInteger(ms)) {
    lastIso = `${secondText}${MS[String(sub).length - 1]}${sub}Z`;
  } else {
    lastIso = new Date(ms).toISOString();
    if (Number.isInteger(ms)) {
      const s = ms % 1000;
      secondMs = ms - (s < 0 ? s + 1000 : s);
      secondText = lastIso.slice(0, -4);
    }
  }
  lastMs = ms;
  return lastIso;
}
