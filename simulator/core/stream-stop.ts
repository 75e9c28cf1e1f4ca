import type { DrainTarget, StreamStop } from './types.ts';

// A stream's stop handle and drain target may be functions or objects with a method (see StreamStop,
// DrainTarget): every open stream keeps them, and an object it already has costs nothing more.

/**
 * Stops an opened stream, whichever form its stop handle has.
 * @example const stop = source.open(sink); res.on('close', () => stopStream(stop));
 */
export function stopStream(stop: StreamStop | undefined): void {
  if (typeof stop === 'function') stop();
  else stop?.stop();
}

/**
 * Tells a drain target that the client took what was buffered, whichever form it has.
 * @example sink.onDrain = (target) => res.on('drain', () => drainedTo(target));
 */
export function drainedTo(target: DrainTarget | undefined): void {
  if (typeof target === 'function') target();
  else target?.drained();
}
