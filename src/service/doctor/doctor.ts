// doctor: what a user checks when something is off — layout, config, git, index state, the
// embedding model, always-loaded files over the load budget. deps: core, indexes, engine, service/shared.
import { loadCut, type LoadCut } from '../../core/budget.js';
import type { MemoryFs } from '../../core/ports.js';
import { toRelPath } from '../../core/paths.js';
import { EXPORT_TARGETS, HOST_FILES } from '../export/targets.js';
import type { LayoutName } from '../../core/layout.js';
import { indexFingerprint, staleness, vectorKeysOf } from '../../engine/chunks/index-manager.js';
import type { SemanticIndex } from '../../engine/vectors/semantic.js';
import type { MemoryContext } from '../shared/memory-context.js';
import { leftOutMarkdown, type LeftOutMarkdown } from './left-out.js';
import { sameNameGroups } from '../../core/workspace.js';

export interface DoctorReport {
  root: string;
  layout: { name: LayoutName; source: 'config' | 'detected' };
  config: { file: boolean };
  git: { repository: boolean; gitdir: string | null };
  index: {
    location: string;
    state: 'fresh' | 'stale' | 'missing' | 'corrupt';
    detail: string | null;
    chunks: number | null;
  };
  /** `leftOut`: markdown the layout does not take as memory (service/doctor/left-out.ts). */
  files: { memory: number; skipped: number; leftOut: LeftOutMarkdown; sameName: string[][] };
  model: { state: 'ready' | 'missing' | 'disabled' | 'failed'; detail: string; dir: string | null; vectors: number };
  /**
   * Always-loaded files (MEMORY.md) against config `load`, and the files hosts load at the root
   * (AGENTS.md, CLAUDE.md, Cursor's gitmem rule, Copilot's instructions: `gitmem export`'s targets)
   * against that host's own limit: for each file a host would cut, the first line it drops (1-based)
   * and how much is dropped; `host` names the host for the root files.
   */
  load: {
    maxLines: number;
    maxBytes: number;
    over: {
      path: string;
      lines: number;
      bytes: number;
      cutAtLine: number;
      by: 'lines' | 'bytes';
      droppedLines: number;
      droppedBytes: number;
      host?: string;
    }[];
  };
  node: string;
}

/** What {@link doctor} needs besides the context: the index fingerprint, git dir and model folder. */
/**
 * The doctor report of the workspace behind `ctx` (reads every memory file, loads the index manifest
 * under the config's and layout's fingerprint, probes the model in `ctx.modelDir`). Takes no input.
 */
export async function doctor(ctx: MemoryContext): Promise<DoctorReport> {
  const { fs, loaded, config, storage, read } = ctx;
  const fingerprint = indexFingerprint(config, loaded.layout);
  const gitdir = ctx.git?.gitdir;
  const modelState = () => modelStateOf(ctx, ctx.modelDir);
  const raw = await read();
  const { loadIndex } = await import('../../indexes/manifest/store.js');
  const { INDEX_FORMAT_VERSION } = await import('../../engine/chunks/index-manager.js');
  const res = await loadIndex(storage, { formatVersion: INDEX_FORMAT_VERSION, fingerprint });
  let state: DoctorReport['index']['state'];
  let detail: string | null;
  let chunks: number | null = null;
  if (res.ok) {
    const st = staleness(res.manifest, raw.hashes);
    state = st ? 'stale' : 'fresh';
    detail = st ?? null;
    chunks = res.manifest.chunkCount;
  } else {
    state =
      res.reason === 'missing' ? 'missing' : res.reason === 'corrupt' || res.reason === 'partial' ? 'corrupt' : 'stale';
    detail = `index ${res.reason}; the next recall or \`gitmem index\` rebuilds it`;
  }
  return {
    root: fs.root,
    layout: { name: loaded.layout.name, source: loaded.layoutSource },
    config: { file: loaded.fromFile },
    git: { repository: gitdir !== undefined, gitdir: gitdir ?? null },
    index: { location: storage.location, state, detail, chunks },
    files: {
      memory: raw.files.length,
      skipped: raw.skipped.length,
      leftOut: await leftOutMarkdown(fs, loaded.layout),
      // Paths that are one name in another Unicode normal form (R35).
      sameName: sameNameGroups(raw.files.map((f) => f.path as string)),
    },
    model: await modelState(),
    load: {
      ...config.load,
      over: [
        ...raw.files.flatMap((f) => {
          const cut = f.kind === 'long_term' ? loadCut(f.text, config.load) : undefined;
          return cut ? [overEntry(f.path, cut)] : [];
        }),
        ...(await hostFilesOver(fs)),
      ],
    },
    node: process.version,
  };
}

/** The root files hosts always load (service/export/targets.ts) that their host would cut. */
async function hostFilesOver(fs: MemoryFs): Promise<DoctorReport['load']['over']> {
  const over: DoctorReport['load']['over'] = [];
  const seen = new Set<string>();
  for (const t of EXPORT_TARGETS) {
    const { path, budget, host } = HOST_FILES[t];
    if (seen.has(path)) continue;
    seen.add(path);
    let bytes: Uint8Array | undefined;
    try {
      bytes = await fs.read(toRelPath(path));
    } catch {
      continue; // not readable from the workspace (outside it, or refused): nothing to check
    }
    if (!bytes) continue;
    const cut = loadCut(new TextDecoder().decode(bytes), budget);
    if (cut) over.push(overEntry(path, cut, host));
  }
  return over;
}

/** One file a host would cut, as the report lists it (`cutAtLine` 1-based; `host` only for the root files). */
function overEntry(path: string, cut: LoadCut, host?: string): DoctorReport['load']['over'][number] {
  return {
    path,
    lines: cut.totalLines,
    bytes: cut.totalBytes,
    cutAtLine: cut.line + 1,
    by: cut.by,
    droppedLines: cut.droppedLines,
    droppedBytes: cut.droppedBytes,
    ...(host === undefined ? {} : { host }),
  };
}

/** Vectors of the chunks the loaded index holds (not the unused ones kept for an undo); else the last sync's count. */
async function vectorsInUse(ctx: MemoryContext, semantic: SemanticIndex): Promise<number> {
  await ctx.freshness.known(); // opens the saved index (no read, no write)
  const snapshot = ctx.freshness.snapshot;
  if (!snapshot) return semantic.size;
  return semantic.countOf(
    (function* () {
      for (const [key] of vectorKeysOf(snapshot.chunks)) yield key;
    })(),
  );
}

async function modelStateOf(ctx: MemoryContext, modelDir: string | undefined): Promise<DoctorReport['model']> {
  const { semantic } = ctx;
  if (!semantic)
    return {
      state: 'disabled',
      detail: 'model.enabled is false in gitmem.config.json',
      dir: modelDir ?? null,
      vectors: 0,
    };
  await semantic.probe();
  if (semantic.unavailable) {
    const missing = /no model folder|lacks|not configured/.test(semantic.unavailable);
    return {
      state: missing ? 'missing' : 'failed',
      detail: `${semantic.unavailable}${missing ? ' — run `gitmem setup` (in a clone: `npm run setup`; or set model.dir); keyword recall still works' : ''}`,
      dir: modelDir ?? null,
      vectors: 0,
    };
  }
  const verified = (semantic.embedder as { verified?: boolean } | undefined)?.verified ? ', SHA-256 verified' : '';
  return {
    state: 'ready',
    detail: `${semantic.modelId} loaded in this process (runtime and model)${verified}`,
    dir: modelDir ?? null,
    vectors: await vectorsInUse(ctx, semantic),
  };
}
