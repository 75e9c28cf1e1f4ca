// The objects a node:http answer keeps while it lasts: the call's exchange (client gone? which stream
// sink to tell when the response closes) and a stream's sink. Every open stream keeps one of each, so
// they are plain objects with methods rather than closures.
import type { ServerResponse } from 'node:http';
import { drainedTo, stopStream } from '../core/stream-stop.ts';
import type { DrainTarget, StreamSink, StreamStop } from '../core/types.ts';

/**
 * One call on a node:http response as the listener follows it: when the client went away before the
 * answer was complete (`at`, the core's `clientGone`), and the stream sink to tell when it closes.
 * One object and one 'close' listener per call, instead of a record, a once() wrapper and a second
 * listener for streams: every open stream keeps them.
 */
export class NodeExchange {
  /** The exchange of a response, for the one 'close' listener all responses share (exchangeClosed). */
  static of(res: ServerResponse): NodeExchange | undefined {
    return (res as Tagged)[EXCHANGE];
  }
  at = 0;
  /** Set by the client observer: the clock `at` is read from (default real time). */
  clock: (() => number) | undefined = undefined;
  /** Set by the client observer: told when the client went away before the answer. */
  onGone: (() => void) | undefined = undefined;
  sink: NodeStreamSink | undefined;
  private readonly res: ServerResponse;
  constructor(res: ServerResponse) {
    this.res = res;
    (res as Tagged)[EXCHANGE] = this;
  }
  closed(): void {
    if (!this.res.writableFinished) {
      this.at = this.clock ? this.clock() : Date.now();
      this.onGone?.();
    }
    this.sink?.closed();
  }
}

// A response carries its exchange and its stream sink under these keys, so one listener function
// serves every response.
const EXCHANGE = Symbol('ncs.exchange');
const SINK = Symbol('ncs.stream-sink');
type Tagged = ServerResponse & { [EXCHANGE]?: NodeExchange; [SINK]?: NodeStreamSink };

/**
 * The 'close' listener of every followed response (`this` is the response): one function for all, so an
 * open stream keeps no closure and context of its own for it.
 * @example res.on('close', exchangeClosed);
 */
export function exchangeClosed(this: ServerResponse): void {
  NodeExchange.of(this)?.closed();
}

/** The 'drain' listener of every stream's response (`this` is the response). */
function sinkDrained(this: ServerResponse): void {
  drainedTo((this as Tagged)[SINK]?.drainTarget);
}

/**
 * The 'close' listener of a stream's response that no exchange follows (`this` is the response).
 * @example res.on('close', sinkClosed);
 */
export function sinkClosed(this: ServerResponse): void {
  (this as Tagged)[SINK]?.closed();
}

/** What the server keeps of its open streams: it stops them all at shutdown. */
export interface OpenStreams {
  add(stream: { stop(): void }): void;
  delete(stream: { stop(): void }): void;
}

/**
 * A stream's sink on a node:http response, and its handle for the server: one object with methods
 * rather than a closure per reaction, since every open stream keeps it.
 */
export class NodeStreamSink implements StreamSink {
  private readonly res: ServerResponse;
  private ended = false;
  stopSource: StreamStop | undefined;
  open: OpenStreams | undefined;
  /** Told when the response drained (see sinkDrained). */
  drainTarget: DrainTarget | undefined;
  constructor(res: ServerResponse) {
    this.res = res;
    (res as Tagged)[SINK] = this;
  }
  write(chunk: string): boolean {
    if (this.ended) return false;
    return this.res.write(chunk);
  }
  end(): void {
    if (this.ended) return;
    this.ended = true;
    this.res.end();
  }
  onDrain(target: DrainTarget): void {
    this.drainTarget = target;
    // One listener function for every stream's response; it finds the sink on the response.
    this.res.on('drain', sinkDrained);
  }
  /** The server stops the stream (shutdown). */
  stop(): void {
    stopStream(this.stopSource);
    this.end();
  }
  /** The response closed (client gone, or ended). */
  closed(): void {
    this.ended = true;
    stopStream(this.stopSource);
    this.open?.delete(this);
  }
}
