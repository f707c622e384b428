// The review marks kept in derived state (`review-marks.json` beside the index, never in the work
// tree): the commits `gitmem sync` brought in from another author, and the memory files a person
// approved (`gitmem review --approve`, or a checkpoint from the editor's review view). An approval
// holds for the text it was given on (its content hash): any later edit needs a new one.
// deps: core.
import { contentHash } from '../../core/hash.js';
import type { IndexStorage } from '../../core/ports.js';

const FILE = 'review-marks.json';
/** Most incoming commits and approvals kept each (oldest dropped first). */
const MAX_MARKS = 5000;

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

async function update(storage: IndexStorage, change: (m: ReviewMarks) => void): Promise<void> {
  const m = await readReviewMarks(storage);
  change(m);
  const trim = (r: Record<string, unknown>) => {
    const keys = Object.keys(r);
    for (const k of keys.slice(0, Math.max(0, keys.length - MAX_MARKS))) delete r[k];
  };
  trim(m.approved);
  trim(m.incoming);
  trim(m.incomingFiles);
  await storage.write(FILE, JSON.stringify(m));
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
