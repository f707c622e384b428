// The one debounce of the project: run an action once a burst of calls has been quiet for `delayMs`,
// or at the latest `maxWaitMs` after the burst began. Used by the file watcher (bursts of file
// events), the language server's index updates, the delayed vector save of a watch session and the
// qmd backend's refresh. Timers are the runtime's (setTimeout); no other dependency.

export interface DebounceOptions {
  /** Quiet time that ends a burst, in ms. */
  readonly delayMs: number;
  /** Longest a burst may hold the action back, in ms (default: no limit). */
  readonly maxWaitMs?: number;
  /** Do not keep the process alive for the timers (Node's `unref`). */
  readonly unref?: boolean;
}

/** Why the action runs: the burst went quiet, or it lasted `maxWaitMs`. */
export type DebounceCause = 'quiet' | 'max-wait';

type Timer = ReturnType<typeof setTimeout>;

export class Debouncer {
  readonly #run: (cause: DebounceCause) => void;
  readonly #o: DebounceOptions;
  #quiet: Timer | undefined;
  #max: Timer | undefined;
  #burstStart = 0;

  constructor(run: (cause: DebounceCause) => void, options: DebounceOptions) {
    this.#run = run;
    this.#o = options;
  }

  /** (Re)start the quiet period; the first call of a burst also starts the max-wait clock. */
  schedule(): void {
    if (this.#quiet) clearTimeout(this.#quiet);
    this.#quiet = this.#timer(this.#o.delayMs, () => {
      this.#quiet = undefined;
      // The burst is over: its max-wait clock ends with it, or it would run the action a second
      // time with no call behind it (docs/bad-inputs.md R24).
      if (this.#max) clearTimeout(this.#max);
      this.#max = undefined;
      this.#run('quiet');
    });
    if (this.#o.maxWaitMs !== undefined && !this.#max) {
      this.#burstStart = Date.now();
      this.#max = this.#timer(this.#o.maxWaitMs, () => {
        this.#max = undefined;
        if (this.#quiet) clearTimeout(this.#quiet);
        this.#quiet = undefined;
        this.#run('max-wait');
      });
    }
  }

  /** Stop both timers: the action does not run for this burst (callers that run it themselves call this first). */
  cancel(): void {
    if (this.#quiet) clearTimeout(this.#quiet);
    if (this.#max) clearTimeout(this.#max);
    this.#quiet = undefined;
    this.#max = undefined;
  }

  /** True while the action is scheduled. */
  get pending(): boolean {
    return this.#quiet !== undefined || this.#max !== undefined;
  }

  /** Milliseconds since the current burst began (with `maxWaitMs`; 0 when no burst is open). */
  get burstMs(): number {
    return this.#max ? Date.now() - this.#burstStart : 0;
  }

  #timer(ms: number, fn: () => void): Timer {
    const t = setTimeout(fn, ms);
    if (this.#o.unref) t.unref?.();
    return t;
  }
}
