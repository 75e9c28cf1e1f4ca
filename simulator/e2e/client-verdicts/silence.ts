/**
 * A stream reader's silence detector: `onSilence` runs once nothing was heard for `ms` of real time AND
 * for a few turns of the event loop after that. A starved process fires its timers late, and a timer
 * due during the stall runs before the poll that reads bytes already sent: the turns let those bytes
 * in first, so a busy machine is never taken for a silent server. Real time is what a reader waits
 * here (a transport matter); what it then does with the silence can be on the sandbox clock.
 * @example const quiet = silenceWatch(400, () => reader.cancel()); quiet.heard(); ...; quiet.stop();
 */
export function silenceWatch(ms: number, onSilence: () => void) {
  let timer: NodeJS.Timeout | undefined;
  let heardCount = 0;
  return {
    /** Something arrived (or reading starts): the silence counts from now. */
    heard() {
      clearTimeout(timer);
      const mine = ++heardCount;
      timer = setTimeout(async () => {
        for (let turn = 0; turn < 5; turn++) await new Promise((resolve) => setImmediate(resolve));
        if (mine === heardCount) onSilence();
      }, ms);
    },
    stop() {
      heardCount++;
      clearTimeout(timer);
    },
  };
}
