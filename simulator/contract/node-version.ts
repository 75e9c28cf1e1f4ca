/**
 * Whether a Node version satisfies an `engines.node` range of the form `>=MAJOR.MINOR[.PATCH]` (the
 * only form this package uses). The installed `ncs` and every entry point of the library check it first.
 * @example nodeSatisfies('22.12.0', '>=22.19') // false
 */
export function nodeSatisfies(version: string, range: string): boolean {
  const want = /^>=\s*(\d+)(?:\.(\d+))?(?:\.(\d+))?$/.exec(range.trim());
  const have = /^v?(\d+)\.(\d+)\.(\d+)/.exec(version);
  if (!want || !have) throw new Error(`cannot compare Node ${version} with engines ${JSON.stringify(range)}`);
  for (let i = 1; i <= 3; i++) {
    const a = Number(have[i]);
    const b = Number(want[i] ?? 0);
    if (a !== b) return a > b;
  }
  return true;
}

/**
 * The line an unsupported Node gets, or undefined when this Node will do.
 * @example unsupportedNodeMessage('v20.20.2', '>=22.19') // "ncs needs Node.js >=22.19 ..."
 */
export function unsupportedNodeMessage(version: string, range: string): string | undefined {
  if (nodeSatisfies(version, range)) return undefined;
  return (
    `ncs needs Node.js ${range}; this is Node.js ${version}. ` +
    'Install a newer Node (https://nodejs.org), or run it once with: npx -p node@24 -p ncs-sandbox ncs <command>'
  );
}
