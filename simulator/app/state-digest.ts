import type { Fault } from '../services/fault-service.ts';
import { all, andThen, type MaybePromise } from '../state/ports/maybe-promise.ts';
import type { SandboxState } from './sandbox-state.ts';

/**
 * A digest of all tenant data (connections, idempotency records, audit and feed heads, receivers, faults,
 * the catalog's generation): two equal digests prove that a rejected request changed nothing. At once
 * from memory; one promise when a repository answers later.
 * @example const before = await stateDigest(state); ...; expect(await stateDigest(state)).toBe(before);
 */
export function stateDigest(state: SandboxState): MaybePromise<string> {
  const tenants = [...state.tenants.keys()];
  const connections = all(tenants.map((t) => state.connections.list(t)));
  const heads = all(tenants.map((t) => state.audit.head(t)));
  const feeds = andThen(state.feeds.keys(), (keys) =>
    andThen(all(keys.map((k) => state.feeds.lastId(k))), (ids) => keys.map((k, i) => [k, ids[i]])),
  );
  const idempotency = state.idempotency.size();
  const faults: MaybePromise<Fault[]> = state.faults.list();
  const receivers = state.receivers.count();
  return andThen(connections, (connections) =>
    andThen(heads, (audit) =>
      andThen(feeds, (feeds) =>
        andThen(idempotency, (idempotency) =>
          andThen(faults, (faults) =>
            andThen(receivers, (receivers) =>
              JSON.stringify({
                connections,
                idempotency,
                audit,
                feeds,
                receivers,
                faults,
                catalog: state.catalog.generation(),
              }),
            ),
          ),
        ),
      ),
    ),
  );
}
