// The files of the empty project the install check installs the packed tarball into: what a partner
// writes on day one (the README's MSW example as a vitest test, plain imports, a typed use).
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

/** Plain Node: every entry point loads and exports what the README names. */
export const PLAIN_IMPORTS = `
const simulator = await import('ncs-sandbox');
const kit = await import('ncs-sandbox/conformance');
const contract = await import('ncs-sandbox/contract');
const missing = [
  typeof simulator.createSandbox === 'function' ? '' : 'ncs-sandbox: createSandbox',
  typeof kit.runConformance === 'function' ? '' : 'ncs-sandbox/conformance: runConformance',
  contract.BASE_PATH === '/api/public/v1' ? '' : 'ncs-sandbox/contract: BASE_PATH',
].filter(Boolean);
if (missing.length) throw new Error('missing exports: ' + missing.join(', '));
console.log('imports ok');
`;

/** The README's "Using it from your tests (MSW)" example, run by vitest, plus the kit and the contract. */
export const VITEST_TEST = `
import { setupServer } from 'msw/node';
import { createSandbox } from 'ncs-sandbox';
import { CHECKS } from 'ncs-sandbox/conformance';
import { ERROR_TABLE } from 'ncs-sandbox/contract';
import { afterAll, expect, test } from 'vitest';

const sandbox = createSandbox();
const server = setupServer(...sandbox.handlers);
server.listen({ onUnhandledFrame: 'error' });
afterAll(() => server.close());

test('the README MSW example answers', async () => {
  const { token, tenant } = sandbox.issueToken();
  const res = await fetch('https://api.sandbox.example/api/public/v1/providers', {
    headers: { authorization: \`Bearer \${token}\`, 'x-service-tenant': tenant },
  });
  expect(res.status).toBe(200);
  expect((await res.json()).ok).toBe(true);
});

test('the kit and the contract load', () => {
  expect(CHECKS.length).toBeGreaterThan(0);
  expect(ERROR_TABLE.rate_limited.status).toBe(429);
});
`;

/** Typed use of all three entry points; the expect-error lines fail if the types were \`any\`. */
export const TYPED_USE = `
import { createSandbox, type Sandbox } from 'ncs-sandbox';
import { runConformance, type RunResult } from 'ncs-sandbox/conformance';
import { ERROR_TABLE } from 'ncs-sandbox/contract';

const sandbox: Sandbox = createSandbox({ environment: 'sandbox' });
const status: number = ERROR_TABLE.not_found.status;
export const pending: Promise<RunResult> = runConformance({ baseUrl: 'http://127.0.0.1:4010' });
export const tokenLength: number = sandbox.issueToken().token.length + status;
// @ts-expect-error createSandbox takes an options object
createSandbox(42);
// @ts-expect-error not an error code of the interface
export const wrong = ERROR_TABLE.no_such_code;
`;

export const TSCONFIG = {
  compilerOptions: {
    module: 'nodenext',
    moduleResolution: 'nodenext',
    target: 'es2023',
    strict: true,
    noEmit: true,
    types: ['node'],
  },
  files: ['typed-use.ts'],
};

/**
 * Writes the consumer project into `dir` (package.json without dependencies: the check installs them).
 * @example writeConsumerProject(mkdtempSync(join(tmpdir(), 'ncs-consumer-')))
 */
export function writeConsumerProject(dir: string): void {
  mkdirSync(dir, { recursive: true });
  const files: Record<string, string> = {
    'package.json': `${JSON.stringify({ name: 'ncs-consumer', private: true, type: 'module' }, null, 2)}\n`,
    'plain-imports.mjs': PLAIN_IMPORTS,
    'consumer.test.ts': VITEST_TEST,
    'typed-use.ts': TYPED_USE,
    'tsconfig.json': `${JSON.stringify(TSCONFIG, null, 2)}\n`,
  };
  for (const [name, text] of Object.entries(files)) writeFileSync(join(dir, name), text);
}
