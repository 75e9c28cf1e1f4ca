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
  /**
   * Share of `maxClients` that anonymous streams may hold in all (default 0.25). Per-address caps do not
   * stop a client with many source addresses (127.0.0.2, .3, …); this bound does, so authenticated
   * clients always find room.
   */
  maxAnonymousShare: number;
  /** Retry-After of the 429 when a limit is reached. */
  retryAfterSeconds: number;
}

export const DEFAULT_STREAM_LIMITS: StreamLimits = {
  maxClientsPerFeed: 1_000,
  maxClients: 20_000,
  maxAnonymousPerAddress: 100,
  maxAnonymousShare: 0.25,
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
  let anonymous = 0;
  if (!(limits.maxAnonymousShare >= 0 && limits.maxAnonymousShare <= 1))
    throw new RangeError(`maxAnonymousShare must be between 0 and 1, not ${limits.maxAnonymousShare}`);
  const maxAnonymous = Math.floor(limits.maxClients * limits.maxAnonymousShare);
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
    if (anonymous >= maxAnonymous)
      throw refuse(
        `Streams without credentials hold their whole share (${maxAnonymous}); authenticated streams still get through.`,
      );
    perAddress.set(address, mine + 1);
    anonymous++;
    return () => {
      anonymous--;
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
