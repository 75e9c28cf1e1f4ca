// Imported first by every entry point of the library (ncs-sandbox, ncs-sandbox/conformance,
// ncs-sandbox/contract): on a Node older than the package's `engines`, the import fails at once with
// the line the `ncs` command prints, not with an error from deep inside a dependency
// (`Promise.withResolvers is not a function` on Node 20). Free of recent APIs, so old Nodes run it.
import { readFileSync } from 'node:fs';
import { unsupportedNodeMessage } from './node-version.ts';

const range = enginesNode();
const problem = range === undefined ? undefined : unsupportedNodeMessage(process.version, range);
if (problem) throw new Error(problem);

/**
 * `engines.node` of this package: the nearest package.json named ncs-sandbox above this file (in a
 * clone simulator/contract/, installed dist/simulator/contract/). Undefined when none is found (the
 * library bundled into an application): nothing is checked then.
 */
function enginesNode(): string | undefined {
  for (let up = 2; up <= 4; up++) {
    try {
      const manifest = JSON.parse(readFileSync(new URL(`${'../'.repeat(up)}package.json`, import.meta.url), 'utf8'));
      if (manifest?.name === 'ncs-sandbox') return manifest.engines?.node;
    } catch {
      // Not here: one level up.
    }
  }
  return undefined;
}
