// `gitmem init`: create the layout's files without ever overwriting one. deps: core, parse.
import { CONFIG_FILE, scaffoldConfigText } from '../../core/config.js';
import { MemoryError } from '../../core/errors.js';
import { classify, LAYOUT_NAMES, layoutPreset, type LayoutName } from '../../core/layout.js';
import { toRelPath } from '../../core/paths.js';
import type { Clock, MemoryFs } from '../../core/ports.js';
import { loadConfig } from '../../engine/load/load.js';

/** The CURRENT_STATE.md template (docs/DESIGN.md §5): fixed sections, placeholders mean "not active". */
function currentStateTemplate(now: Date): string {
  return [
    '# Current State',
    '',
    `> Last updated: ${now.toISOString().replace(/\.\d{3}Z$/, 'Z')}`,
    '',
    '## Objective',
    '',
    'None',
    '',
    '## Current Step',
    '',
    'None',
    '',
    '## Key Decisions',
    '',
    '## Next Action',
    '',
    'None',
    '',
    '## Blockers',
    '',
    'None',
    '',
    '## Unsurfaced Results',
    '',
    'None',
    '',
  ].join('\n');
}

const MEMORY_TEMPLATE =
  '# Memory\n\nLong-term, curated memory. One bullet per fact; headings group them.\n\n## Decisions\n\n## Conventions\n\n## Gotchas\n';
const DREAMS_TEMPLATE =
  '# Dreams\n\nConsolidation proposals awaiting review (`gitmem dream`). Nothing here is memory until promoted.\n';

/**
 * Is `text` a file `gitmem init` wrote at `path` (any folder, any layout) that nobody changed since:
 * the config, MEMORY.md, DREAMS.md, CURRENT_STATE.md (with any "Last updated" time), an empty
 * `.gitkeep`? Such a file holds nothing of the user's: `gitmem sync` in a clone that has no commit
 * yet lets the remote's version replace it (docs/bad-inputs.md R52).
 */
export function isUntouchedScaffold(path: string, text: string): boolean {
  const base = path.slice(path.lastIndexOf('/') + 1);
  const noTime = (t: string) => t.replace(/^> Last updated: .*$/m, '');
  switch (base) {
    case '.gitkeep':
      return text === '';
    case CONFIG_FILE:
      return LAYOUT_NAMES.some((l) => text === scaffoldConfigText(l));
    case 'MEMORY.md':
      return text === MEMORY_TEMPLATE;
    case 'DREAMS.md':
      return text === DREAMS_TEMPLATE;
    case 'CURRENT_STATE.md':
      return noTime(text) === noTime(currentStateTemplate(new Date(0)));
    default:
      return false;
  }
}

export interface InitResult {
  readonly layout: LayoutName;
  /** Files written now. */
  readonly created: string[];
  /** Files that already existed and were left untouched. */
  readonly existing: string[];
}

/** The layout `init` scaffolds and why, in words. */
export interface InitLayoutChoice {
  readonly layout: LayoutName;
  /** "--layout plain", "set in gitmem.config.json", or the detection's reason. */
  readonly reason: string;
  /** How it was chosen: asked for, configured, or detected from the files present. */
  readonly source: 'requested' | 'config' | 'detected';
}

/**
 * Settle which layout `init` scaffolds. Without `requested`: the configured layout, else the one
 * detected from the files present (an empty folder gets `default`), so init never hides memory
 * that recall already finds.
 * @throws MemoryError `usage` when `requested` differs from a configured layout, or when the folder
 *   already holds memory files in another layout that `requested` would not treat as memory.
 */
export async function chooseInitLayout(fs: MemoryFs, requested: LayoutName | undefined): Promise<InitLayoutChoice> {
  const loaded = await loadConfig(fs);
  const current = loaded.layout.name;
  if (loaded.layoutSource === 'config') {
    if (requested && requested !== current) {
      throw new MemoryError('usage', `this workspace already uses the ${current} layout (${CONFIG_FILE})`, {
        hint: `run \`gitmem init --layout ${current}\`, or change "layout" in ${CONFIG_FILE} first`,
      });
    }
    return { layout: current, reason: `set in ${CONFIG_FILE}`, source: 'config' };
  }
  if (requested === current) return { layout: current, reason: `--layout ${current}`, source: 'requested' };
  if (!requested) return { layout: current, reason: loaded.layoutReason ?? 'detected', source: 'detected' };
  // No config: the detected layout is what recall uses today. Refuse a layout that would hide it.
  const target = layoutPreset(requested);
  const memory = await fs.list((p) => classify(p, loaded.layout) !== undefined);
  const hidden = memory.filter((p) => classify(p, target) === undefined);
  if (hidden.length > 0) {
    const sample = hidden.slice(0, 3).join(', ');
    throw new MemoryError(
      'usage',
      `this folder already holds memory in the ${current} layout (${hidden.length} file${hidden.length === 1 ? '' : 's'}, e.g. ${sample}); the ${requested} layout would hide ${hidden.length === 1 ? 'it' : 'them'} from recall`,
      {
        hint: `run \`gitmem init\` (or \`gitmem init --layout ${current}\`) to keep the files it finds, or write {"layout":"${requested}"} to ${CONFIG_FILE} yourself if hiding them is intended`,
        data: { detected: current, requested, hidden: hidden.length },
      },
    );
  }
  return { layout: requested, reason: `--layout ${requested}`, source: 'requested' };
}

/** Scaffold `layout` in the workspace. Idempotent: existing files are reported, never rewritten. */
export async function initWorkspace(
  fs: MemoryFs,
  options: { layout: LayoutName; clock: Clock; inGit: boolean },
): Promise<InitResult> {
  const layout = layoutPreset(options.layout);
  const dir = layout.memoryDir ? `${layout.memoryDir}/` : '';
  const longTerm = layout.kinds.long_term[0]!;
  const dreams = layout.kinds.dreams[0]!;
  const state = layout.kinds.current_state[0]!;
  const files: [string, string][] = [
    [CONFIG_FILE, scaffoldConfigText(options.layout)],
    [longTerm, MEMORY_TEMPLATE],
    [dreams, DREAMS_TEMPLATE],
    [state, currentStateTemplate(options.clock.now())],
    [`${dir}entries/.gitkeep`, ''],
    [`${dir}playbook/.gitkeep`, ''],
  ];
  // A workspace keeps one layout: scaffolding another one would write files that are not memory.
  await chooseInitLayout(fs, options.layout);
  // A file standing where a folder of the layout goes (a `memory` file) would fail the write of
  // the first file under it, after the config was written: check every folder first (U45).
  const folders = new Set(
    files.flatMap(([p]) =>
      p
        .split('/')
        .slice(0, -1)
        .map((_, i, a) => a.slice(0, i + 1).join('/')),
    ),
  );
  for (const folder of folders) {
    const st = await fs.stat(toRelPath(folder));
    if (st && !st.isDirectory)
      throw new MemoryError(
        'path.invalid',
        `${folder} is a file, not a folder; the ${options.layout} layout keeps its memory there; nothing written`,
        {
          data: { file: folder },
          hint: `rename or move ${folder} away, then run gitmem init again (or choose another layout with --layout)`,
        },
      );
  }
  const created: string[] = [];
  const existing: string[] = [];
  for (const [p, text] of files) {
    const rel = toRelPath(p);
    if (await fs.stat(rel)) existing.push(rel);
    else {
      await fs.writeTextAtomic(rel, text);
      created.push(rel);
    }
  }
  if (!options.inGit) {
    // Derived state lives in <workspace>/.gitmem/ outside git; keep it out of any future repository.
    const gi = toRelPath('.gitignore');
    const cur = await fs.read(gi);
    const text = cur ? new TextDecoder().decode(cur) : '';
    if (!/^\/?\.gitmem\/?\s*$/m.test(text)) {
      await fs.writeTextAtomic(gi, `${text}${text && !text.endsWith('\n') ? '\n' : ''}.gitmem/\n`);
      (cur ? existing : created).push('.gitignore');
    }
  }
  return { layout: options.layout, created, existing };
}
