import { andThen } from '../ports/maybe-promise.ts';
import type { ClockOffsetRepository, StoredClockOffset } from '../ports/clock-offset.ts';
import type { Persistence } from './persistence.ts';
import { PersistenceError } from './persistence-error.ts';
import { afterLoad } from './write-through.ts';

/** Record namespace and key of the data dir (and of a shared sandbox's snapshots): unchanged since the first data dirs. */
const NS = 'clock';
const KEY = 'sandbox';

/**
 * The clock offset written through to `persistence` (the SQLite data dir, or the snapshot persistence of
 * a shared sandbox): the stored offset is put into the repository at start (a record that is not
 * `{offsetMs, sandboxNow}` stops the start), every write stored in the same step. The rules (time never
 * moves backwards across restarts) are the clock service's. Without a durable persistence the repository
 * is answered as is.
 * @example const clock = createClockService({ repository: durableClockOffset(createClockOffsetStore(), persistence) });
 */
export function durableClockOffset(repository: ClockOffsetRepository, persistence: Persistence): ClockOffsetRepository {
  if (!persistence.durable) return repository;
  let stored: StoredClockOffset | undefined;
  for (const [key, value] of persistence.entries<StoredClockOffset>(NS)) if (key === KEY) stored = value;
  if (
    stored !== undefined &&
    (!Number.isFinite(stored?.offsetMs) || !Number.isFinite(stored?.sandboxNow) || stored.offsetMs < 0)
  )
    throw new PersistenceError(
      `${persistence.lastRead?.() ?? 'the data dir'}: the stored sandbox clock is not {offsetMs, sandboxNow}; the data dir is damaged.`,
    );
  const ready = afterLoad(stored === undefined ? undefined : repository.put(stored));
  return {
    get: () => ready(() => repository.get()),
    put: (offset) =>
      ready(() =>
        andThen(repository.put(offset), () =>
          persistence.put(NS, KEY, { offsetMs: offset.offsetMs, sandboxNow: offset.sandboxNow }),
        ),
      ),
    clear: () => ready(() => andThen(repository.clear(), () => persistence.delete(NS, KEY))),
  };
}
