let lastMs = Number.NaN;
let lastIso = '';

/**
 * `new Date(ms).toISOString()`, remembered for the last millisecond asked: under load many calls
 * share a millisecond (envelope `at`, createdAt, audit entries) and need the same text.
 * @example isoTime(0) === '1970-01-01T00:00:00.000Z'
 */
export function isoTime(ms: number): string {
  if (ms !== lastMs) {
    lastIso = new Date(ms).toISOString();
    lastMs = ms;
  }
  return lastIso;
}
