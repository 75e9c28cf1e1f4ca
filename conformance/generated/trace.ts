import type { CheckContext } from '../runner/check.ts';

/** A value a refused call carried, which no later observation may show (it was never written). */
export interface RefusedTrace {
  /** A recognisable text of the refused call: its scope label, generated text or Idempotency-Key. */
  value: string;
  /** The refused call, in words (method, path, probe). */
  call: string;
}

/** Traces the run's refused calls left to look for; the generated checks add, the trace check reads. */
export function refusedTraces(ctx: CheckContext): Promise<RefusedTrace[]> {
  return ctx.shared('generated-refused-traces', async () => []);
}

/** Long enough to be recognisable and never a coincidence (generated texts of 1 or 2 characters are not). */
const RECOGNISABLE = 12;

/** Records the recognisable strings of a refused call (values longer than 12 characters that carry `marker`). */
export async function recordRefused(ctx: CheckContext, call: string, values: readonly unknown[], marker: string) {
  const traces = await refusedTraces(ctx);
  for (const v of values.flat())
    if (typeof v === 'string' && v.length >= RECOGNISABLE && v.includes(marker)) traces.push({ value: v, call });
}
