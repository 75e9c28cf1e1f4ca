import { join } from 'node:path';
import { type ConsoleReporterOptions, createConsoleReporter } from './console.ts';
import { createHtmlReporter } from './html.ts';
import { createJsonReporter } from './json.ts';
import { createJUnitReporter } from './junit.ts';
import type { Reporter } from './reporter.ts';

export const REPORTER_NAMES = ['console', 'json', 'junit', 'html'] as const;
export type ReporterName = (typeof REPORTER_NAMES)[number];

/** File names inside --output. */
export const REPORT_FILES = { json: 'conformance.json', junit: 'junit.xml', html: 'conformance.html' } as const;

/**
 * Reporters by name: console to stdout, json, junit and html as files in `outputDir`.
 * @example createReporters(['console', 'junit'], { outputDir: 'conformance-results' })
 */
export function createReporters(
  names: readonly string[],
  opts: { outputDir: string; console?: ConsoleReporterOptions },
): Reporter[] {
  return names.map((name) => {
    switch (name) {
      case 'console':
        return createConsoleReporter(opts.console);
      case 'json':
        return createJsonReporter({ file: join(opts.outputDir, REPORT_FILES.json) });
      case 'junit':
        return createJUnitReporter({ file: join(opts.outputDir, REPORT_FILES.junit) });
      case 'html':
        return createHtmlReporter({ file: join(opts.outputDir, REPORT_FILES.html) });
      default:
        throw new Error(`unknown reporter ${name}; use ${REPORTER_NAMES.join(', ')}`);
    }
  });
}

export type { Reporter } from './reporter.ts';
