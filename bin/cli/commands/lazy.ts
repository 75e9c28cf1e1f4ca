// What the commands load when they run rather than at every start of `ncs`: registering the commands
// (program.ts) evaluates only their option tables and help texts, so `ncs --version`, a usage error or
// `ncs webhook sign` does not build the contract's zod schemas, route tables and clients that other
// commands need. In the bundle (dist/cli/ncs-main.cjs) a module reached only through import() is
// evaluated on its first import; one static import from a registering module would make it eager again.

/**
 * The control-plane client and where the control plane is (flags, ready file, NCS_* variables).
 * @example const { createControlClient, resolveControl } = await controlModules();
 */
export async function controlModules() {
  const [client, target] = await Promise.all([import('../../../simulator/control/client.ts'), import('./target.ts')]);
  return { ...client, resolveControl: target.resolveControl };
}
