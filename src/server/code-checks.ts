// Stale-code diagnostics off the request path: open documents are checked against the code they cite
// (editor/code-checks.ts over service/trust; git reads, cached per HEAD in derived state) in the
// background — after the first index build, when a document opens, settles after edits, or is saved —
// one run at a time, letting queued requests run between documents. When an answer changed, the
// document's diagnostics are published again (as diagnostics.ts publishOpen does after the
// background embedding). deps: core, editor (through the session).
import { Debouncer } from '../core/debounce.js';
import type { RelPath } from '../core/paths.js';
import type { Logger } from '../core/ports.js';
import { SerialQueue } from '../core/serial.js';
import { tick } from './context.js';
import type { Session } from './session.js';

export interface CodeCheckDeps {
  session(): Session | undefined;
  /** Workspace paths of the open documents (only those are checked). */
  openPaths(s: Session): ReadonlySet<RelPath>;
  /** Publish the diagnostics of `paths` (diagnostics.ts). */
  publish(s: Session, paths: readonly RelPath[]): void;
  readonly log: Logger;
  /** Quiet period before a run, in ms (a burst of opens and edits is one run). */
  readonly delayMs: number;
}

/** The background queue of code checks for one server. */
export class CodeCheckRunner {
  readonly #d: CodeCheckDeps;
  readonly #queue = new Set<RelPath>();
  readonly #debounce: Debouncer;
  /** One run at a time (core/serial.ts). */
  readonly #runs = new SerialQueue();
  #disposed = false;

  constructor(deps: CodeCheckDeps) {
    this.#d = deps;
    this.#debounce = new Debouncer(() => void this.flush(), {
      delayMs: deps.delayMs,
      maxWaitMs: deps.delayMs * 10,
      unref: true,
    });
  }

  /** Queue `paths` (open documents) for a check after the quiet period. */
  schedule(paths: Iterable<RelPath>): void {
    if (this.#disposed) return;
    for (const p of paths) this.#queue.add(p);
    if (this.#queue.size) this.#debounce.schedule();
  }

  /** Forget a closed document's answer (its stale-code diagnostics go with the editor). */
  closed(s: Session, path: RelPath): void {
    this.#queue.delete(path);
    s.model.codeChecks.forget(path);
  }

  /** Run the queued checks now; never throws (a failure is logged). */
  flush(): Promise<void> {
    return this.#runs.run(() => this.#run());
  }

  async #run(): Promise<void> {
    const s = this.#d.session();
    // Before the model is loaded the queue waits: boot() schedules the open documents once it is.
    if (!s?.model.loaded || this.#queue.size === 0 || this.#disposed) return;
    const open = this.#d.openPaths(s);
    const paths = [...this.#queue].filter((p) => open.has(p));
    this.#queue.clear();
    const docs = paths.map((p) => s.model.workspace.tryGet(p)).filter((d) => d !== undefined);
    if (!docs.length) return;
    const t0 = performance.now();
    try {
      const changed = await s.model.codeChecks.refresh(s.memory.context, docs, tick);
      if (this.#d.session() !== s || this.#disposed) return;
      this.#d.log.debug(
        `gitmem: code check of ${docs.length} open document(s) in ${(performance.now() - t0).toFixed(0)} ms`,
      );
      if (changed.length) this.#d.publish(s, changed);
    } catch (e) {
      this.#d.log.warn(`gitmem: code check failed: ${(e as Error)?.message ?? e}`);
    }
  }

  /** Stop the timer; later schedules are ignored. */
  dispose(): void {
    this.#disposed = true;
    this.#debounce.dispose();
  }
}
