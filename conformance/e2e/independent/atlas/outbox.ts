// Transactional-outbox relay: events are published to the stream and webhooks by a poller, as many
// Java services do (the interface states no latency). intervalMs 0 publishes at once.
export function createOutbox(intervalMs: number) {
  const pending: (() => void)[] = [];
  const flush = (): void => {
    for (const publish of pending.splice(0)) publish();
  };
  const timer = intervalMs > 0 ? setInterval(flush, intervalMs) : undefined;
  return {
    enqueue(publish: () => void): void {
      if (timer === undefined) publish();
      else pending.push(publish);
    },
    close(): void {
      if (timer !== undefined) clearInterval(timer);
    },
  };
}
