import type { Clock } from './clock.ts';
import { createDueQueue } from './due-queue.ts';
import { realScheduler, type Scheduler } from './scheduler.ts';

/**
 * Runs callbacks when the sandbox clock reaches a time: one real timer armed for the earliest task
 * (unref'd, so it never keeps the process alive), re-armed when the clock is advanced, so moving the
 * clock fires at once everything that fell due.
 * @example const cancel = timeline.at(clock.now() + 2_000, () => activate(id)); clock.advance(5_000); // fired
 */
export interface Timeline {
  /** Calls fn once the clock reaches `due` (ms on the sandbox clock); returns a function that cancels it. */
  at(due: number, fn: () => void): () => void;
  /** Tasks waiting (cancelled ones excluded once they reach the head). */
  size(): number;
  /** Cancels every task and the timer; later `at` calls are ignored. */
  close(): void;
}

const noop = () => {};

interface Task {
  fn: () => void;
  due: number;
  done: boolean;
}

// setTimeout overflows past 2^31-1 ms and would fire at once; longer waits re-arm on the way.
const MAX_DELAY = 2 ** 31 - 1;

export function createTimeline(clock: Clock, scheduler: Scheduler = realScheduler): Timeline {
  let queue = createDueQueue<Task>();
  let cancelled = 0;
  let armed: { due: number; cancel: () => void } | undefined;
  let closed = false;

  const disarm = () => {
    armed?.cancel();
    armed = undefined;
  };
  function arm(force: boolean) {
    const due = queue.peek();
    if (due === undefined || closed) return disarm();
    if (!force && armed && armed.due <= due) return;
    disarm();
    armed = { due, cancel: scheduler.schedule(fire, Math.min(MAX_DELAY, Math.max(0, due - clock.now()))) };
  }
  /** Rebuilds the queue without cancelled tasks (streams opened and closed long before their token expires). */
  function compact() {
    const live = createDueQueue<Task>();
    for (const task of queue.popDue(Number.POSITIVE_INFINITY)) if (!task.done) live.push(task.due, task);
    queue = live;
    cancelled = 0;
  }
  function fire() {
    disarm();
    if (closed) return;
    for (const task of queue.popDue(clock.now())) {
      if (task.done) {
        cancelled = Math.max(0, cancelled - 1);
        continue;
      }
      task.done = true;
      try {
        task.fn();
      } catch {
        // A failing task must not stop the ones after it; tasks report their own failures.
      }
    }
    arm(true);
  }
  // The real timer was set for the old offset: after an advance, fire what fell due and re-arm.
  const unsubscribe = clock.onAdvance?.(fire) ?? (() => {});

  return {
    at(due, fn) {
      if (closed) return () => {};
      const task: Task = { fn, due, done: false };
      queue.push(due, task);
      arm(false);
      return () => {
        if (task.done) return;
        // Drop the callback at once: it may hold a closed stream's response until its due time.
        task.done = true;
        task.fn = noop;
        if (++cancelled > 1024 && cancelled * 2 > queue.size()) compact();
      };
    },
    size: () => queue.size(),
    close() {
      closed = true;
      unsubscribe();
      disarm();
      queue.clear();
    },
  };
}
