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

interface Task {
  fn: () => void;
  done: boolean;
}

// setTimeout overflows past 2^31-1 ms and would fire at once; longer waits re-arm on the way.
const MAX_DELAY = 2 ** 31 - 1;

export function createTimeline(clock: Clock, scheduler: Scheduler = realScheduler): Timeline {
  const queue = createDueQueue<Task>();
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
  function fire() {
    disarm();
    if (closed) return;
    for (const task of queue.popDue(clock.now())) {
      if (task.done) continue;
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
      const task: Task = { fn, done: false };
      queue.push(due, task);
      arm(false);
      return () => {
        task.done = true;
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
