// The one in-process serial queue of the project: tasks run one at a time, in the order they were
// handed in, each after every earlier one has settled (a failed task does not stop the next one; its
// caller gets the rejection). Used by the freshness gate (engine/freshness/freshness.ts), the live index's and
// the semantic index's state changes, the watcher's batch delivery and the language server's
// background code checks. No timers, no dependency.

export class SerialQueue {
  #tail: Promise<unknown> = Promise.resolve();
  #waiting = 0;

  /**
   * Run `fn` after every task handed in before it has settled.
   * @returns what `fn` resolves to, or its rejection (the queue itself goes on).
   */
  run<T>(fn: () => T | Promise<T>): Promise<T> {
    this.#waiting++;
    const p = this.#tail.then(fn).finally(() => {
      this.#waiting--;
    });
    this.#tail = p.catch(() => undefined);
    return p;
  }

  /** Tasks handed in and not yet settled (the running one included). */
  get size(): number {
    return this.#waiting;
  }

  /** True while a task is queued or running. */
  get busy(): boolean {
    return this.#waiting > 0;
  }

  /** Resolves once every task handed in so far has settled (never rejects). */
  async idle(): Promise<void> {
    while (this.#waiting > 0) await this.#tail;
  }
}
