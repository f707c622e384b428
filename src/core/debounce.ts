// The one debounce of the project: run an action once a burst of calls has been quiet for `delayMs`,
// or at the latest `maxWaitMs` after the burst began. Used by the file watcher (bursts of file
// events; a burst held while git writes the work tree keeps its max-wait clock: {@link Debouncer.extend}),
// the engine's change queue (engine/freshness/change-queue.ts), the language server's document sync and code
// checks, the live index's deferred save, the delayed vector save of a watch session, `gitmem watch
// --idle-exit` and the qmd backend's refresh. Timers are the runtime's (setTimeout); no other dependency.

export interface DebounceOptions {
  /** Quiet time that ends a burst, in ms. */
  readonly delayMs: number;
  /** Longest a burst may hold the action back, in ms (default: no limit). */
  readonly maxWaitMs?: number;
  /** Do not keep the process alive for the timers (Node's `unref`). */
  readonly unref?: boolean;
}

/** Why the action runs: the burst went quiet, or it lasted `maxWaitMs`. */
export type DebounceCause = 'quiet' | 'max-wait' | 'flush';

type Timer = ReturnType<typeof setTimeout>;

export class Debouncer {
  readonly #run: (cause: DebounceCause) => void;
  readonly #o: DebounceOptions;
  #quiet: Timer | undefined;
  #max: Timer | undefined;
  #burstStart = 0;
  #disposed = false;
  /** True while the action runs (it may {@link extend} its burst). */
  #running = false;
  /** Resolvers of {@link idle} calls, run when nothing is scheduled any more. */
  #idle: (() => void)[] = [];

  constructor(run: (cause: DebounceCause) => void, options: DebounceOptions) {
    this.#run = run;
    this.#o = options;
  }

  /** (Re)start the quiet period; the first call of a burst also starts the max-wait clock. Ignored after {@link dispose}. */
  schedule(): void {
    if (this.#disposed) return;
    this.#armQuiet();
    if (this.#o.maxWaitMs !== undefined && !this.#max) {
      this.#burstStart = Date.now();
      this.#armMax(this.#o.maxWaitMs);
    }
  }

  /**
   * The action just declined to run (e.g. git still writes the work tree): run it again after the
   * quiet period, with the burst's max-wait clock still counting from the burst's first call, so a
   * held burst runs at the latest `maxWaitMs` after it began (before, a re-schedule from the action
   * started a new burst with a new clock, and `burstMs` read 0 inside the action).
   */
  extend(): void {
    if (this.#disposed) return;
    this.#armQuiet();
    if (this.#o.maxWaitMs !== undefined && !this.#max)
      this.#armMax(Math.max(0, this.#burstStart + this.#o.maxWaitMs - Date.now()));
  }

  /** Run the action now if it is scheduled (cause `flush`); nothing when it is not. */
  flush(): void {
    if (!this.pending) return;
    this.#clear();
    this.#fire('flush');
  }

  /** Stop both timers: the action does not run for this burst (callers that run it themselves call this first). */
  cancel(): void {
    this.#clear();
    this.#settle();
  }

  /** {@link cancel}, and ignore every later {@link schedule}. */
  dispose(): void {
    this.#disposed = true;
    this.cancel();
  }

  /** Resolves once nothing is scheduled (the action ran, or was cancelled). */
  idle(): Promise<void> {
    if (!this.pending) return Promise.resolve();
    return new Promise((r) => this.#idle.push(r));
  }

  #armQuiet(): void {
    if (this.#quiet) clearTimeout(this.#quiet);
    this.#quiet = this.#timer(this.#o.delayMs, () => {
      this.#quiet = undefined;
      // The burst is over: its max-wait clock ends with it, or it would run the action a second
      // time with no call behind it (docs/bad-inputs.md R24).
      if (this.#max) clearTimeout(this.#max);
      this.#max = undefined;
      this.#fire('quiet');
    });
  }

  #armMax(ms: number): void {
    this.#max = this.#timer(ms, () => {
      this.#max = undefined;
      if (this.#quiet) clearTimeout(this.#quiet);
      this.#quiet = undefined;
      this.#fire('max-wait');
    });
  }

  #fire(cause: DebounceCause): void {
    this.#running = true;
    try {
      this.#run(cause);
    } finally {
      this.#running = false;
      if (!this.pending) this.#settle();
    }
  }

  #clear(): void {
    if (this.#quiet) clearTimeout(this.#quiet);
    if (this.#max) clearTimeout(this.#max);
    this.#quiet = undefined;
    this.#max = undefined;
  }

  #settle(): void {
    const waiting = this.#idle;
    this.#idle = [];
    for (const r of waiting) r();
  }

  /** True while the action is scheduled. */
  get pending(): boolean {
    return this.#quiet !== undefined || this.#max !== undefined;
  }

  /**
   * Milliseconds since the current burst began (with `maxWaitMs`; 0 when no burst is open). Inside
   * the action, the burst that is running (until the next {@link schedule} starts another).
   */
  get burstMs(): number {
    return this.#max || this.#running ? Date.now() - this.#burstStart : 0;
  }

  #timer(ms: number, fn: () => void): Timer {
    const t = setTimeout(fn, ms);
    if (this.#o.unref) t.unref?.();
    return t;
  }
}
