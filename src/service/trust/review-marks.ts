// The review marks kept in derived state (`review-marks.json` beside the index, never in the work
// tree): the commits `gitmem sync` brought in from another author, and the memory files a person
// approved (`gitmem review --approve`, or a checkpoint from the editor's review view). An approval
// holds for the text it was given on (its content hash): any later edit needs a new one.
// deps: core.
import { contentHash } from '../../core/hash.js';
import type { IndexStorage } from '../../core/ports.js';

const FILE = 'review-marks.json';
/**
 * Most approvals kept (oldest dropped first): a dropped approval only asks for review again.
 * Incoming commits and files are what keep a teammate's lines `incoming` (and out of injected
 * blocks), so they are kept up to MAX_INCOMING (about 60 bytes each, 6 MB there): dropped at 5,000,
 * a busy team's older unreviewed commits read as reviewed (R122).
 */
const MAX_APPROVALS = 5000;
export const MAX_INCOMING = 100_000;
/** How long an update waits for another process's (ms): each holds it for one read and replace. */
const LOCK_WAIT_MS = 10_000;

export interface ReviewMarks {
  /** Workspace-relative path → the content hash approved and the ISO time. */
  readonly approved: Record<string, { readonly hash: string; readonly at: string }>;
  /** Commit id → ISO time it arrived through `gitmem sync`. */
  readonly incoming: Record<string, string>;
  /** Workspace-relative path → ISO time a sync last changed it (what `gitmem review` lists). */
  readonly incomingFiles: Record<string, string>;
}

/** The marks (empty when none or unreadable: they only affect labels). */
export async function readReviewMarks(storage: IndexStorage): Promise<ReviewMarks> {
  try {
    const bytes = await storage.read(FILE);
    if (!bytes) return { approved: {}, incoming: {}, incomingFiles: {} };
    const d = JSON.parse(new TextDecoder().decode(bytes)) as Partial<ReviewMarks>;
    const obj = (v: unknown) => (v && typeof v === 'object' && !Array.isArray(v) ? v : {});
    return {
      approved: obj(d.approved) as ReviewMarks['approved'],
      incoming: obj(d.incoming) as ReviewMarks['incoming'],
      incomingFiles: obj(d.incomingFiles) as ReviewMarks['incomingFiles'],
    };
  } catch {
    return { approved: {}, incoming: {}, incomingFiles: {} };
  }
}

/**
 * Read, change and replace the marks under their own lock (`review-marks.lock`): a sync recording
 * incoming commits while a person approved files lost one of the two updates before (R122). A
 * holder alive past LOCK_WAIT_MS is waited out no longer: the update goes ahead.
 */
async function update(storage: IndexStorage, change: (m: ReviewMarks) => void): Promise<void> {
  const lock = await storage
    .lock?.({ name: 'review-marks', waitMs: LOCK_WAIT_MS, purpose: 'review marks' })
    .catch(() => undefined);
  try {
    const m = await readReviewMarks(storage);
    change(m);
    const trim = (r: Record<string, unknown>, max: number) => {
      const keys = Object.keys(r);
      for (const k of keys.slice(0, Math.max(0, keys.length - max))) delete r[k];
    };
    trim(m.approved, MAX_APPROVALS);
    trim(m.incoming, MAX_INCOMING);
    trim(m.incomingFiles, MAX_INCOMING);
    await storage.write(FILE, JSON.stringify(m));
  } finally {
    await lock?.release();
  }
}

/** Record the commits a sync brought in and the memory files they changed (service/git-ops/remote-sync.ts). */
export function recordIncoming(
  storage: IndexStorage,
  commits: readonly string[],
  files: readonly string[],
  now = new Date(),
): Promise<void> {
  if (commits.length === 0) return Promise.resolve();
  return update(storage, (m) => {
    for (const c of commits) m.incoming[c] = now.toISOString();
    for (const f of files) {
      delete m.incomingFiles[f];
      m.incomingFiles[f] = now.toISOString();
    }
  });
}

/** Record that a person approved `files` (path → current text) as they are now. */
export function approveFiles(
  storage: IndexStorage,
  files: ReadonlyMap<string, string>,
  now = new Date(),
): Promise<void> {
  if (files.size === 0) return Promise.resolve();
  return update(storage, (m) => {
    for (const [path, text] of files) {
      delete m.approved[path];
      m.approved[path] = { hash: contentHash(text), at: now.toISOString() };
    }
  });
}

/** Whether `path`'s current `text` was approved. */
export function isApproved(marks: ReviewMarks, path: string, text: string): boolean {
  const a = marks.approved[path];
  return a !== undefined && a.hash === contentHash(text);
}
