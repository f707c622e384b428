// A tiny, VS Code-style event emitter: Event<T> is a function that subscribes a listener and returns
// a Disposable. Listeners run synchronously in subscription order; one throwing listener does not
// stop the others (the error goes to `onListenerError`). Imports nothing.

/** Something that holds a resource until disposed. Disposing twice is harmless. */
export interface Disposable {
  dispose(): void;
}

/** Subscribe `listener`; dispose the result to unsubscribe. */
export type Event<T> = (listener: (e: T) => void) => Disposable;

/** Owns an {@link Event} and fires it. */
export class Emitter<T> {
  #listeners: ((e: T) => void)[] = [];
  #disposed = false;
  readonly #onListenerError: (e: unknown) => void;

  /** @param onListenerError called with whatever a listener throws (default: ignore). */
  constructor(onListenerError: (e: unknown) => void = () => {}) {
    this.#onListenerError = onListenerError;
  }

  /** The subscribe function handed to consumers. */
  readonly event: Event<T> = (listener) => {
    if (this.#disposed) return { dispose() {} };
    this.#listeners.push(listener);
    let done = false;
    return {
      dispose: () => {
        if (done) return;
        done = true;
        this.#listeners = this.#listeners.filter((l) => l !== listener);
      },
    };
  };

  /** Call every current listener with `e`. */
  fire(e: T): void {
    for (const l of [...this.#listeners]) {
      try {
        l(e);
      } catch (err) {
        this.#onListenerError(err);
      }
    }
  }

  /** Number of subscribed listeners. */
  get size(): number {
    return this.#listeners.length;
  }

  /** Drop every listener; later subscriptions are no-ops. */
  dispose(): void {
    this.#disposed = true;
    this.#listeners = [];
  }
}

/** @returns a promise for the next event `event` fires that satisfies `accept`. */
export function nextEvent<T>(event: Event<T>, accept: (e: T) => boolean = () => true): Promise<T> {
  return new Promise((resolve) => {
    const sub = event((e) => {
      if (!accept(e)) return;
      sub.dispose();
      resolve(e);
    });
  });
}
