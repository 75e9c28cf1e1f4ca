// Timestamps. DataWeave habit (ACACIA_UTC_OFFSET_MINUTES, read by hand-started deployments only): RFC 3339 with
// the offset of the worker's zone (`…T08:06:44.123+01:00`) instead of `Z`; the default is UTC with `Z`.
export function stamp(ms: number = Date.now()): string {
  const offset = Number(process.env.ACACIA_UTC_OFFSET_MINUTES ?? '0');
  if (!Number.isInteger(offset) || offset === 0) return new Date(ms).toISOString();
  const local = new Date(ms + offset * 60_000).toISOString().slice(0, -1);
  const sign = offset < 0 ? '-' : '+';
  const abs = Math.abs(offset);
  return `${local}${sign}${String(Math.floor(abs / 60)).padStart(2, '0')}:${String(abs % 60).padStart(2, '0')}`;
}
