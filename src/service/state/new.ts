// The state-new use case (the reset boundary): archive the outgoing state into today's daily note
// (append-only, under the daily note's lock too), check every unsurfaced result reached it, then reset
// CURRENT_STATE.md to the template. Optionally checkpoint-commits the files it wrote.
// deps: core, continuity, service/state/state-file.ts.
import { MemoryError } from '../../core/errors.js';
import { contentHash } from '../../core/hash.js';
import { classify } from '../../core/layout.js';
import { toRelPath, type RelPath } from '../../core/paths.js';
import { appendToDaily, archiveBlock } from '../../continuity/archive.js';
import { hasContent, renderFreshState } from '../../continuity/render-state.js';
import { EMPTY_FIELDS, localDateTime, type StateFields } from '../../continuity/sections.js';
import type { CheckpointResult } from '../git-ops/checkpoint.js';
import type { StateFile, WriteOptions } from './state-file.js';

export interface StateNewResult {
  readonly path: RelPath;
  readonly hash: string;
  /** Where the outgoing state went; null when it held nothing to archive. */
  readonly archived: { readonly path: RelPath; readonly results: number } | null;
  readonly checkpoint?: CheckpointResult;
}

export async function newState(file: StateFile, options: WriteOptions = {}): Promise<StateNewResult> {
  const { ctx, fs, path, clock, exclusive, read, check, readText, writeChecked, commit, offset, stamp } = file;
  const result = await exclusive(async () => {
    const cur = await read();
    check(cur, options);
    const now = clock.now();
    const fields: StateFields = cur.parsed.fields;
    const extras = cur.parsed.sections
      .filter((s) => !s.known)
      .map((s) => ({
        heading: s.name || '(untitled section)',
        lines: cur.parsed.lines.slice(s.bodyStart, s.bodyEnd),
      }))
      .filter((x) => x.lines.some((l) => l.trim() !== ''));
    let archived: StateNewResult['archived'] = null;
    if (hasContent(fields) || extras.length > 0) {
      const { date, time } = localDateTime(now, offset(now));
      const dir = ctx.loaded.layout.memoryDir;
      const daily = toRelPath(dir ? `${dir}/${date}.md` : `${date}.md`);
      if (classify(daily, ctx.loaded.layout) !== 'daily') {
        throw new MemoryError(
          'config.invalid',
          `${daily} would not be a daily note in this layout; the state was not reset`,
          { data: { path: daily } },
        );
      }
      const block = archiveBlock(fields, {
        time,
        updated: cur.parsed.updated?.raw ?? null,
        reason: 'Archived by `gitmem state new`',
        extras,
      });
      const archive = async () => {
        const before = await readText(daily);
        const next = appendToDaily(before, date, block);
        // The archive copies the state file's lines as they stand: a person's marked line keeps its mark.
        await writeChecked(daily, next, before === undefined ? null : contentHash(before), cur.parsed.lines.join('\n'));
      };
      // The daily note's lock too: `gitmem append` may be writing it (service/remember/daily.ts).
      await fs.withFileLock(daily, archive);
      // Only reset once the archive is on disk with every unsurfaced result in it.
      const back = (await readText(daily)) ?? '';
      const missing = fields.results.filter((r) => !back.includes(r.split('\n')[0]!));
      if (missing.length)
        throw new MemoryError(
          'fs.write-failed',
          `archive in ${daily} lacks ${missing.length} unsurfaced result(s); the state was not reset`,
        );
      archived = { path: daily, results: fields.results.length };
    }
    const fresh = renderFreshState(EMPTY_FIELDS, stamp(now));
    const text = cur.exists ? `${cur.parsed.hasBom ? '\uFEFF' : ''}${fresh.replace(/\n/g, cur.parsed.eol)}` : fresh;
    const hash = await writeChecked(path, text, cur.hash);
    return { path, hash, archived };
  });
  const cp = await commit(options, `state: new${result.archived ? ` (archived to ${result.archived.path})` : ''}`, [
    path,
    ...(result.archived ? [result.archived.path] : []),
  ]);
  return cp ? { ...result, checkpoint: cp } : result;
}
