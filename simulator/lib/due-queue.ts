import { must } from './invariant.ts';

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
  const at = (i: number) => must(heap[i], 'a due-queue index lies inside the heap');
  const before = (a: Entry<T>, b: Entry<T>) => a.due < b.due || (a.due === b.due && a.seq < b.seq);

  function up(i: number) {
    const e = at(i);
    while (i > 0) {
      const p = (i - 1) >> 1;
      if (!before(e, at(p))) break;
      heap[i] = at(p);
      i = p;
    }
    heap[i] = e;
  }

  function down(i: number) {
    const e = at(i);
    const n = heap.length;
    for (;;) {
      const l = 2 * i + 1;
      if (l >= n) break;
      const c = l + 1 < n && before(at(l + 1), at(l)) ? l + 1 : l;
      if (!before(at(c), e)) break;
      heap[i] = at(c);
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
      for (let root = heap[0]; root !== undefined && root.due <= now; root = heap[0]) {
        out.push(root.item);
        const last = at(heap.length - 1);
        heap.pop();
        if (heap.length) {
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
