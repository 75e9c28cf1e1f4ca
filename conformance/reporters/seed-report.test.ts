import { describe, expect, it } from 'vitest';
import type { RunEvent } from '../runner/events.ts';
import { fixtureRun } from '../test-support/fixture-run.ts';
import { createConsoleReporter } from './console.ts';
import { toHtmlReport } from './html.ts';
import { createJsonReporter } from './json.ts';
import { JsonReport } from './json-report.ts';
import { toJUnitXml } from './junit.ts';

/** The fixture run with a seed on its start and end events. */
const seeded = (): RunEvent[] =>
  fixtureRun().map((e) => (e.type === 'run-start' || e.type === 'run-end' ? { ...e, seed: 1234 } : e));

describe('every report prints the seed of the generated probes', () => {
  it('console: in the first lines', () => {
    let out = '';
    const r = createConsoleReporter({
      write: (t) => {
        out += t;
      },
      color: false,
    });
    for (const e of seeded()) r.onEvent(e);
    expect(out.split('\n').slice(0, 3).join('\n')).toMatch(/seed 1234/);
  });
  it('json: a seed field of the report format', () => {
    let text = '';
    const r = createJsonReporter({
      write: (t) => {
        text = t;
      },
    });
    for (const e of seeded()) r.onEvent(e);
    const report = JsonReport.parse(JSON.parse(text));
    expect(report.seed).toBe(1234);
  });
  it('html: in the header', () => {
    const events = seeded();
    const start = events.find((e) => e.type === 'run-start') as Extract<RunEvent, { type: 'run-start' }>;
    const end = events.find((e) => e.type === 'run-end') as Extract<RunEvent, { type: 'run-end' }>;
    expect(toHtmlReport(start, end)).toContain('seed 1234');
  });
  it('junit: a seed property', () => {
    const end = seeded().find((e) => e.type === 'run-end') as Extract<RunEvent, { type: 'run-end' }>;
    expect(toJUnitXml(end)).toContain('<property name="seed" value="1234"');
  });
});
