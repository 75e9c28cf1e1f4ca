/**
 * Items ordered by due time (ties in insertion order): a binary min-heap, so finding what fell due
 * costs O(log n) per due item instead of a scan of everything waiting.
 * @example const q = createDueQueue<string>(); q.push(20, 'b'); q.push(10, 'a'); q.popDue(15) // ['a']
 */
export interface DueQueue<T> {
  push(due: number, item: T): void;
  /** Removes and returns, earliest first, every item due at or before `now`. */
  popDue(now: number): T[];
  /** Earliest due time, or undefined when empty. */
  peek(): number | undefined;
  size(): number;
  clear(): void;
}

interface Entry<T> {
  due: number;
  seq: number;
  item: T;
}

export function createDueQueue<T>(): DueQueue<T> {
  let heap: Entry<T>[] = [];
  let seq = 0;
  const before = (a: Entry<T>, b: Entry<T>) => a.due < b.due || (a.due === b.due && a.seq < b.seq);

  // Indexes below heap.length always hold an entry; the `undefined` checks only say so to the compiler.
  function up(i: number) {
    const e = heap[i];
    if (!e) return;
    while (i > 0) {
      const p = (i - 1) >> 1;
      const parent = heap[p];
      if (!parent || !before(e, parent)) break;
      heap[i] = parent;
      i = p;
    }
    heap[i] = e;
  }

  function down(i: number) {
    const e = heap[i];
    if (!e) return;
    const n = heap.length;
    for (;;) {
      const l = 2 * i + 1;
      const left = heap[l];
      if (l >= n || !left) break;
      const right = heap[l + 1];
      let c = l;
      let child = left;
      if (right && before(right, left)) {
        c = l + 1;
        child = right;
      }
      if (!before(child, e)) break;
      heap[i] = child;
      i = c;
    }
    heap[i] = e;
  }

  return {
    push(due, item) {
      heap.push({ due, seq: seq++, item });
      up(heap.length - 1);
    },
    popDue(now) {
      const out: T[] = [];
      for (let top = heap[0]; top && top.due <= now; top = heap[0]) {
        out.push(top.item);
        const last = heap.pop();
        if (last && heap.length) {
          heap[0] = last;
          down(0);
        }
      }
      return out;
    },
    peek: () => heap[0]?.due,
    size: () => heap.length,
    clear() {
      heap = [];
    },
  };
}
