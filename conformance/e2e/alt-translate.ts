// The alternative deployment's names on the wire: its connection ids, event names, state names and
// addresses outward, the simulator's inward (conformance/e2e/alt-target.ts relays every call through these).
import type { AltChoices } from './alt-choices.ts';
import { ID_FORMATS } from './alt-relay.ts';

const SIM_ID = /\bcon_[A-Za-z0-9_-]{16}\b/g;

/**
 * The text rewrites between the simulator and the deployment `c` shows; `origins` answers the proxy's own
 * main and alternate origins once it listens.
 * @example const { outward, inward } = translator(ALT_B, sim, () => [origin, altOrigin]);
 */
export function translator(
  c: AltChoices,
  sim: { baseUrl: string; altBaseUrl?: string | undefined },
  origins: () => [string, string],
) {
  const prefix = c.basePrefix ?? '';
  const ids = ID_FORMATS[c.idFormat];
  const toAlt = new Map<string, string>();
  const toSim = new Map<string, string>();
  const renames = Object.entries(c.events);
  const outward = (text: string) => {
    const [origin, altOrigin] = origins();
    return renames
      .reduce(
        (t, [alt, simName]) =>
          t.replaceAll(`"${simName}"`, `"${alt}"`).replaceAll(`event: ${simName}\n`, `event: ${alt}\n`),
        text.replaceAll(sim.baseUrl, origin + prefix).replaceAll(sim.altBaseUrl!, altOrigin + prefix),
      )
      .replace(SIM_ID, (id) => {
        let u = toAlt.get(id);
        if (!u) {
          u = ids.make(toAlt.size + 1);
          toAlt.set(id, u);
          toSim.set(u, id);
        }
        return u;
      });
  };
  const inward = (text: string) =>
    renames.reduce(
      (t, [alt, simName]) => t.replaceAll(`"${alt}"`, `"${simName}"`),
      // An id put in a path arrives percent-encoded (a `/` in it as %2F).
      text.replace(ids.find, (u) => toSim.get(u) ?? toSim.get(decodeURIComponent(u)) ?? u),
    );

  // This deployment's state names wherever a "state" holds the simulator's, except in the descriptions
  // (the simulator writes compact JSON, and a quote inside a string is escaped: only real fields match).
  const stateNames = Object.entries(c.states).map(([simName, alt]) => [`"state":"${simName}"`, `"state":"${alt}"`]);
  const renameStates = (text: string) => stateNames.reduce((t, [from, to]) => t.replaceAll(from!, to!), text);

  return { outward, inward, renameStates };
}
