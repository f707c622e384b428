// Test support: items that arrive over time (a watch process's JSON lines, a Memory's change events)
// and a wait for the next one that matches; what a test waits on from a running watcher.

/** Items in arrival order, with waits on what arrives next. */
export class Arrivals<T> {
  readonly items: T[] = [];
  readonly #waiters = new Set<() => void>();

  /** Add items (in order) and let every wait look at them. */
  push(...items: T[]): void {
    this.items.push(...items);
    for (const w of [...this.#waiters]) w();
  }

  /** Call `check` after every arrival until the returned function removes it (true: it was still there). */
  onArrival(check: () => void): () => boolean {
    this.#waiters.add(check);
    return () => this.#waiters.delete(check);
  }

  /**
   * Resolve with the first item arriving from now on that satisfies `accept`.
   * @param timeoutMessage the rejection's message after `timeoutMs` (given where the wait began).
   * @param ended rejects the wait with its message when its promise settles first (a process exited).
   */
  next(
    accept: (item: T) => boolean,
    timeoutMs: number,
    timeoutMessage: (start: number) => string,
    ended?: { readonly promise: Promise<unknown>; readonly message: () => string },
  ): Promise<T> {
    return new Promise<T>((resolve, reject) => {
      const start = this.items.length;
      const timer = setTimeout(() => {
        stop();
        reject(new Error(timeoutMessage(start)));
      }, timeoutMs);
      const stop = this.onArrival(() => {
        const hit = this.items.slice(start).find(accept);
        if (!hit) return;
        clearTimeout(timer);
        stop();
        resolve(hit);
      });
      void ended?.promise.then(() => {
        if (!stop()) return; // already answered
        clearTimeout(timer);
        reject(new Error(ended.message()));
      });
    });
  }
}
