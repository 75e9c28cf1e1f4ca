import { encodeSseComment, encodeSseControl, encodeSseRetry } from '../events/sse.ts';
import type { StreamSource } from '../core/types.ts';
import type { InspectorStores } from './stores.ts';
import type { Journal } from './journal.ts';

/** How often the page hears the clock and the delivery queue even when nothing else happens. */
export const LIVE_TICK_MS = 1000;

/**
 * The inspector's own event stream: `journal` per answered call, `change` per domain event (connections,
 * receivers, deliveries, audit) and a `tick` each second with the clock and pending deliveries, so views
 * refresh within a second. Only open while a page is: nobody listening costs the API nothing.
 * @example const source = createLiveSource(state, journal); source.open(sink) // returns the stop function
 */
export function createLiveSource(state: InspectorStores, journal: Journal, tickMs = LIVE_TICK_MS): StreamSource {
  return {
    open(sink) {
      sink.write(encodeSseRetry(1000));
      sink.write(encodeSseComment('ncs inspector live'));
      const offJournal = journal.subscribe((s) => sink.write(encodeSseControl('journal', s)));
      const offEvents = state.events.on((e) =>
        sink.write(encodeSseControl('change', { type: e.type, tenant: e.tenant, target: e.target })),
      );
      let lastSignature = '';
      const tick = (armed: number) => {
        // Delivery attempts finish outside any request: a changed signature tells the page to reload that view.
        const pending = state.dispatcher.pending();
        const signature = `${pending}|${armed}|${state.clock.offset()}`;
        sink.write(
          encodeSseControl('tick', {
            now: new Date(state.clock.now()).toISOString(),
            pendingDeliveries: pending,
            changed: signature !== lastSignature,
          }),
        );
        lastSignature = signature;
      };
      const timer = setInterval(() => {
        const faults = state.faults.list();
        if (faults instanceof Promise)
          faults.then(
            (f) => tick(f.length),
            () => {},
          );
        else tick(faults.length);
      }, tickMs);
      timer.unref?.();
      return () => {
        clearInterval(timer);
        offJournal();
        offEvents();
      };
    },
  };
}
