import type { StreamSource } from '../core/types.ts';
import { encodeSseComment, encodeSseControl, encodeSseRetry } from '../events/sse.ts';
import type { Journal } from './journal.ts';
import type { InspectorStores } from './stores.ts';

/** How often the page hears the clock and the delivery queue even when nothing else happens. */
export const LIVE_TICK_MS = 1000;
/**
 * Bytes written to a page that stopped reading (since the sink last said it was full) before its live
 * stream is ended. Every answered call goes to every open page: without the bound a page in a frozen
 * tab held everything the API did since, in the server's memory. The page's EventSource reconnects.
 */
export const LIVE_MAX_BEHIND_BYTES = 256 * 1024;

/**
 * The inspector's own event stream: `journal` per answered call, `change` per domain event (connections,
 * receivers, deliveries, audit) and a `tick` each second with the clock and pending deliveries, so views
 * refresh within a second. Only open while a page is: nobody listening costs the API nothing.
 * @example const source = createLiveSource(state, journal); source.open(sink) // returns the stop function
 */
export function createLiveSource(
  state: InspectorStores,
  journal: Journal,
  tickMs = LIVE_TICK_MS,
  maxBehindBytes = LIVE_MAX_BEHIND_BYTES,
): StreamSource {
  return {
    open(sink) {
      // Bytes written since the sink said it was full; back to 0 when it drains.
      let behind = -1;
      let stopped = false;
      sink.onDrain?.(() => {
        behind = -1;
      });
      const send = (chunk: string) => {
        if (stopped) return;
        if (behind >= 0) behind += Buffer.byteLength(chunk);
        if (behind > maxBehindBytes) {
          stop();
          sink.end();
          return;
        }
        if (!sink.write(chunk) && behind < 0 && sink.onDrain) behind = 0;
      };
      send(encodeSseRetry(1000));
      send(encodeSseComment('ncs inspector live'));
      const offJournal = journal.subscribe((s) => send(encodeSseControl('journal', s)));
      const offEvents = state.events.on((e) =>
        send(encodeSseControl('change', { type: e.type, tenant: e.tenant, target: e.target })),
      );
      let lastSignature = '';
      const tick = (armed: number) => {
        // Delivery attempts finish outside any request: a changed signature tells the page to reload that view.
        const pending = state.dispatcher.pending();
        const signature = `${pending}|${armed}|${state.clock.offset()}`;
        send(
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
      function stop() {
        stopped = true;
        clearInterval(timer);
        offJournal();
        offEvents();
      }
      return stop;
    },
  };
}
