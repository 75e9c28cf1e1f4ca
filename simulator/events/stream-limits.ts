import { ApiError } from '../core/api-error.ts';

export interface StreamLimits {
  /** Open streams per feed (one tenant's feed, or the public feed). */
  maxClientsPerFeed: number;
  /** Open streams in the whole process. */
  maxClients: number;
  /**
   * Open anonymous streams (the public feed) per client address, so one client's idle streams cannot
   * fill the public feed for everyone. Applies where the transport knows the address (node:http).
   */
  maxAnonymousPerAddress: number;
  /** Retry-After of the 429 when a limit is reached. */
  retryAfterSeconds: number;
}

export const DEFAULT_STREAM_LIMITS: StreamLimits = {
  maxClientsPerFeed: 1_000,
  maxClients: 20_000,
  maxAnonymousPerAddress: 100,
  retryAfterSeconds: 5,
};

/**
 * Counts open streams and refuses new ones past the limits with 429 rate_limited + Retry-After.
 * `address` (anonymous streams only) counts against the per-address limit as well.
 * @example const release = gate.admit('tenant:harbour-kitchens'); ...; release();
 */
export function createStreamGate(limits: StreamLimits = DEFAULT_STREAM_LIMITS) {
  const perFeed = new Map<string, number>();
  const perAddress = new Map<string, number>();
  let total = 0;
  const refuse = (detail: string) =>
    new ApiError('rate_limited', {
      detail,
      hint: 'Close streams you no longer read, then retry after the Retry-After seconds.',
      headers: { 'retry-after': String(limits.retryAfterSeconds) },
    });
  const admitAddress = (address: string): (() => void) => {
    const mine = perAddress.get(address) ?? 0;
    if (mine >= limits.maxAnonymousPerAddress)
      throw refuse(`This client address already has ${mine} open streams without credentials.`);
    perAddress.set(address, mine + 1);
    return () => {
      const n = (perAddress.get(address) ?? 1) - 1;
      if (n <= 0) perAddress.delete(address);
      else perAddress.set(address, n);
    };
  };
  return {
    limits,
    admit(feed: string, address?: string): () => void {
      const open = perFeed.get(feed) ?? 0;
      if (open >= limits.maxClientsPerFeed || total >= limits.maxClients) {
        throw refuse(
          open >= limits.maxClientsPerFeed
            ? `This feed already has ${open} open streams.`
            : 'The simulator holds the most streams it accepts.',
        );
      }
      const releaseAddress = address !== undefined ? admitAddress(address) : undefined;
      perFeed.set(feed, open + 1);
      total++;
      let released = false;
      return () => {
        if (released) return;
        released = true;
        releaseAddress?.();
        total--;
        const n = (perFeed.get(feed) ?? 1) - 1;
        if (n <= 0) perFeed.delete(feed);
        else perFeed.set(feed, n);
      };
    },
    open: (feed?: string) => (feed === undefined ? total : (perFeed.get(feed) ?? 0)),
  };
}
export type StreamGate = ReturnType<typeof createStreamGate>;
