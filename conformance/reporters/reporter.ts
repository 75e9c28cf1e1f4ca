import type { RunEvent } from '../runner/events.ts';

/** Consumes the run's event stream and renders it somewhere. */
export interface Reporter {
  name: string;
  onEvent(event: RunEvent): void;
  /** Resolves once everything is written (files flushed). */
  done(): Promise<void>;
}

/** The failure block every reporter shows: expectation, observation, request, requestId, curl. */
export function failureLines(f: {
  expected: string;
  observed: string;
  request?: string;
  requestId?: string;
  curl?: string;
  response?: string;
  diff?: { path: string; expected: string; observed: string }[];
}): [string, string][] {
  const lines: [string, string][] = [
    ['expected', f.expected],
    ['observed', f.observed || '(see response)'],
  ];
  for (const d of f.diff ?? [])
    lines.push(['differs', d.path === '…' ? d.expected : `${d.path}: expected ${d.expected}, observed ${d.observed}`]);
  if (f.request) lines.push(['request', f.request]);
  if (f.requestId) lines.push(['requestId', f.requestId]);
  if (f.curl) lines.push(['reproduce', f.curl]);
  if (f.response) lines.push(['response', f.response]);
  return lines;
}

/** "1 check", "2 checks": counts in reports read as English. */
export const plural = (n: number, word: string, many = `${word}s`) => `${n} ${n === 1 ? word : many}`;
