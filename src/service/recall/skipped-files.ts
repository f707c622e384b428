// The note a recall answer carries when memory files were left out of the index for their size (over
// config `limits.maxFileBytes`): recall cannot find what is in them, so the answer says so rather
// than drop them silently (R62). The index records such a file with a `size:<bytes>:<mtime>` marker
// hash and no chunks (engine/load/load.ts, engine/freshness/sync.ts); this reads those markers from
// the live index (engine/live/live-index.ts oversized) or the answer's snapshot's manifest. Paths are masked as every recall name is (core/secret-mask.ts maskName).
// deps: core, engine (types), indexes (manifest-files eachDoc).
import { maskName } from '../../core/secret-mask.js';
import type { IndexSnapshot } from '../../engine/chunks/index-manager.js';
import { eachDoc } from '../../indexes/manifest/manifest-files.js';

/**
 * The snapshot manifest's files whose hash is a size marker. Walked from the manifest's file-table
 * columns (eachDoc): reading `manifest.docs` would make an entry per file (100,000 at 100k files) per recall.
 */
function markedIn(snapshot: IndexSnapshot): Array<[string, string]> {
  const out: Array<[string, string]> = [];
  if (snapshot.manifest)
    eachDoc(snapshot.manifest, (path, hash) => {
      if (hash.startsWith('size:')) out.push([path, hash]);
    });
  return out;
}

/** Most paths the note names before "and N more". */
const SHOWN = 3;

/**
 * `live`: the live index's marked files when it holds states of its own (built or changed in this
 * process: the snapshot's manifest is then the last saved one), else the snapshot's manifest is read.
 * "1 memory file is over limits.maxFileBytes (100000 bytes) and not searched: memory/big.md
 * (1948897 bytes); split it, or raise limits.maxFileBytes in gitmem.config.json", or undefined
 * when the snapshot holds none.
 */
export function oversizedNote(
  snapshot: IndexSnapshot,
  live: Array<[string, string]> | undefined,
  cap: number,
): string | undefined {
  const marked = live ?? markedIn(snapshot);
  const over: string[] = [];
  for (const [path, hash] of marked) {
    const m = /^size:(\d+):/.exec(hash);
    if (m) over.push(`${maskName(path)} (${m[1]} bytes)`);
  }
  if (over.length === 0) return undefined;
  over.sort();
  const n = over.length;
  const more = n > SHOWN ? `, and ${n - SHOWN} more` : '';
  return `${n} memory file${n === 1 ? ' is' : 's are'} over limits.maxFileBytes (${cap} bytes) and not searched: ${over.slice(0, SHOWN).join(', ')}${more}; split ${n === 1 ? 'it' : 'them'}, or raise limits.maxFileBytes in gitmem.config.json`;
}
