/**
 * Fixed-capacity FIFO: pushing onto a full buffer drops the oldest item. O(1) push and indexed read,
 * no copying, so a feed of a million messages holds exactly `capacity` of them.
 * @example const r = new RingBuffer<number>(2); r.push(1); r.push(2); r.push(3); r.at(0) // 2
 */
export class RingBuffer<T> {
  readonly capacity: number;
  private readonly items: (T | undefined)[];
  private start = 0;
  private count = 0;

  constructor(capacity: number) {
    if (!Number.isSafeInteger(capacity) || capacity < 1)
      throw new RangeError(`ring buffer capacity must be a positive integer, not ${capacity}`);
    this.capacity = capacity;
    this.items = new Array<T | undefined>(capacity);
  }

  get size(): number {
    return this.count;
  }

  /** Appends; returns the item dropped to make room, if any. */
  push(item: T): T | undefined {
    if (this.count < this.capacity) {
      this.items[(this.start + this.count) % this.capacity] = item;
      this.count++;
      return undefined;
    }
    const dropped = this.items[this.start];
    this.items[this.start] = item;
    this.start = (this.start + 1) % this.capacity;
    return dropped;
  }

  /** Item i counted from the oldest (0) to the newest (size - 1). */
  at(i: number): T | undefined {
    if (!Number.isInteger(i) || i < 0 || i >= this.count) return undefined;
    return this.items[(this.start + i) % this.capacity];
  }

  oldest(): T | undefined {
    return this.at(0);
  }

  newest(): T | undefined {
    return this.at(this.count - 1);
  }

  /** Items from index `from` (inclusive) to `to` (exclusive), oldest first. */
  slice(from = 0, to = this.count): T[] {
    const lo = Math.max(0, from);
    const hi = Math.min(this.count, to);
    const out: T[] = [];
    for (let i = lo; i < hi; i++) out.push(this.items[(this.start + i) % this.capacity] as T);
    return out;
  }

  clear(): void {
    this.items.fill(undefined);
    this.start = 0;
    this.count = 0;
  }
}
