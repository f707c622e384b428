// The two benchmark workspaces of bench:peers and bench:workspace (issue 46): `synthetic` (bench/perf.ts
// generateWorkspace: short bullets of a made-up vocabulary, about 1.2 KB a file) and `realistic`
// (bench/realistic.ts: LoCoMo turns and the vendored corpora, about 4 KB a file), each with its query set.
// deps: bench/perf.ts, bench/realistic.ts, bench/support/random.ts.
import { generateWorkspace } from './perf.js';
import { generateRealisticWorkspace } from './realistic.js';
import { rng } from './support/random.js';

export type WorkspaceKind = 'realistic' | 'synthetic';

/** A generated workspace: its size, keyword queries and one file to edit for the update figures. */
export interface MadeWorkspace {
  readonly files: number;
  readonly bytes: number;
  readonly queries: string[];
  readonly editable: string;
}

const WORDS =
  'deploy database migration index query cache redis postgres webhook retry timeout latency queue worker test config release branch merge review commit schema token session error decision memory agent search recall'.split(
    ' ',
  );

/** Write a `kind` workspace of `files` memory files under `root`; deterministic for its seed. */
export function makeWorkspace(
  kind: WorkspaceKind,
  root: string,
  files: number,
  options: { shared?: string; corpora: string; seed?: number; queries?: number },
): MadeWorkspace {
  const n = options.queries ?? 40;
  if (kind === 'realistic') return generateRealisticWorkspace(root, files, { ...options, queries: n });
  const { bytes } = generateWorkspace(root, files, options.seed ?? 42);
  const r = rng(7);
  const queries = Array.from({ length: n }, () =>
    Array.from({ length: 2 + Math.floor(r() * 2) }, () => WORDS[Math.floor(r() * WORDS.length)]!).join(' '),
  );
  return { files, bytes, queries, editable: 'memory/entries/e-1.md' };
}
