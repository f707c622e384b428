// Merge rules for memory files: the `.gitattributes` block gitmem owns (union merge for append-only
// files, the gitmem driver for bullets and front-matter) and the `merge.gitmem` driver entry in the
// repository's git config. deps: core (layout), git/system-git, node:fs (does the driver's script exist,
// is gitmem or node on PATH).
import { accessSync, constants, existsSync, statSync } from 'node:fs';
import { delimiter, isAbsolute, join } from 'node:path';
import { MemoryError } from '../core/errors.js';
import type { Layout } from '../core/layout.js';
import { runGit } from './system-git.js';

export const ATTRIBUTES_FILE = '.gitattributes';
const BEGIN = '# >>> gitmem merge rules (written by gitmem init / gitmem doctor --fix; edit outside this block)';
const END = '# <<< gitmem merge rules';

/** The merge driver's name in `.gitattributes` and `merge.<name>.driver`. */
export const DRIVER_NAME = 'gitmem';

/** A workspace glob as a `.gitattributes` pattern (same `*`, `**` and `[…]`; brace sets expanded). */
function toAttrPatterns(glob: string): string[] {
  const brace = /\{([^{}]*)\}/.exec(glob);
  if (brace) return brace[1]!.split(',').flatMap((alt) => toAttrPatterns(glob.replace(brace[0], alt)));
  // A pattern without a slash would match at any depth; anchor it to the workspace folder.
  return [/\//.test(glob) ? glob : `/${glob}`];
}

/**
 * The rules for `layout`: daily notes and `*.jsonl` logs in the memory folder (without one: daily notes
 * at the root only, no logs) are append-only (`merge=union`: both sides' lines kept); MEMORY.md, DREAMS.md, CURRENT_STATE.md, entries and
 * playbook entries use the gitmem driver. Later lines win in git, so entries named by date keep
 * the driver.
 */
export function attributeRules(layout: Layout): string[] {
  const dir = layout.memoryDir ? `${layout.memoryDir}/` : '';
  const rules: string[] = [];
  // Without a memory folder (the plain layout) the daily glob `**/<date>*.md` reaches every folder: a
  // code repository's dated markdown (blog posts, decision records) would merge by keeping both sides'
  // lines (U32). There only the root, where `append` writes daily notes, is union-merged.
  for (const g of layout.kinds.daily) {
    for (const p of toAttrPatterns(dir ? g : g.replace(/^\*\*\//, ''))) rules.push(`${p} merge=union`);
  }
  // Logs in the memory folder only: with no memory folder (the plain layout) `/**/*.jsonl` would put
  // every JSONL file of the repository, data and fixtures too, under union merges (U31).
  if (dir) rules.push(`${dir}**/*.jsonl merge=union`);
  for (const kind of ['long_term', 'dreams', 'current_state', 'entry', 'playbook'] as const) {
    for (const g of layout.kinds[kind]) for (const p of toAttrPatterns(g)) rules.push(`${p} merge=${DRIVER_NAME}`);
  }
  return [...new Set(rules)];
}

/** @returns `existing` with gitmem's block replaced (or appended) by `rules`; other lines untouched. */
export function withAttributeBlock(existing: string, rules: readonly string[]): string {
  const block = [BEGIN, ...rules, END].join('\n');
  const start = existing.indexOf(BEGIN);
  const end = existing.indexOf(END);
  if (start >= 0 && end > start) return `${existing.slice(0, start)}${block}${existing.slice(end + END.length)}`;
  const sep = existing === '' ? '' : existing.endsWith('\n') ? '\n' : '\n\n';
  return `${existing}${sep}${block}\n`;
}

/** @returns `text` without gitmem's block (and the blank line set before it); other lines untouched. */
export function withoutAttributeBlock(text: string): string {
  const start = text.indexOf(BEGIN);
  const end = text.indexOf(END);
  if (start < 0 || end < start) return text;
  const after = text.slice(end + END.length).replace(/^\r?\n/, '');
  return `${text.slice(0, start).replace(/\n\n$/, '\n')}${after}`;
}

/** @returns true when `existing` already holds exactly these rules in gitmem's block. */
export function hasAttributeBlock(existing: string, rules: readonly string[]): boolean {
  return existing.includes([BEGIN, ...rules, END].join('\n'));
}

/** A POSIX-shell single-quoted word (git runs merge drivers through `sh -c`). */
function shellQuote(s: string): string {
  return `'${s.replace(/'/g, `'\\''`)}'`;
}

/** The shell test that opens the driver command {@link driverCommand} writes for a bundled gitmem. */
const PORTABLE_PREFIX = 'if command -v gitmem >/dev/null 2>&1; then ';

/**
 * The driver command line for git config. For a bundled gitmem (`cliScript` is its entry script):
 * `if command -v gitmem >/dev/null 2>&1; then gitmem merge-file %O %A %B; else node '<cli.cjs>'
 * merge-file %O %A %B; fi` — gitmem from PATH when it is there, else the bundled script run by the
 * `node` on PATH, so neither a Node upgrade nor a reinstall elsewhere (with gitmem on PATH) breaks it
 * (R33). Without a bundle: `gitmem merge-file %O %A %B`. git runs it through `sh -c`.
 */
export function driverCommand(cliScript: string | undefined): string {
  if (cliScript && /\.(?:c|m)?js$/.test(cliScript))
    return `${PORTABLE_PREFIX}gitmem merge-file %O %A %B; else node ${shellQuote(cliScript)} merge-file %O %A %B; fi`;
  return 'gitmem merge-file %O %A %B';
}

/** What git config says about the gitmem driver. */
export interface DriverStatus {
  readonly registered: boolean;
  readonly command: string | null;
  /** Why the registered command cannot run (a file it names is gone, nothing on PATH runs it); absent when it can, or when unknown. */
  readonly stale?: string;
  /**
   * Set when the command runs but names absolute paths of Node and gitmem (the form earlier versions
   * registered): it breaks when either moves. `gitmem doctor --fix` (or `init --merge-driver`)
   * registers the portable form.
   */
  readonly outdated?: string;
}

/**
 * The absolute paths a driver command names, in order: the bundled script for {@link driverCommand}'s
 * form; the node executable and the script for the form earlier versions wrote
 * (`'<node>' '<cli.cjs>' merge-file %O %A %B`); empty for `gitmem merge-file …` (found on PATH).
 */
export function driverFiles(command: string): string[] {
  const out: string[] = [];
  const word = /'((?:[^']|'\\'')*)'/g;
  for (let m = word.exec(command); m; m = word.exec(command)) out.push(m[1]!.replace(/'\\''/g, "'"));
  return out.filter((p) => isAbsolute(p));
}

/** @returns whether an executable file `name` is in one of the folders of `path` (a PATH value). */
function onPath(name: string, path: string | undefined): boolean {
  const exts = process.platform === 'win32' ? ['', ...(process.env.PATHEXT ?? '.EXE;.CMD;.BAT').split(';')] : [''];
  for (const dir of (path ?? '').split(delimiter)) {
    if (!dir) continue;
    for (const ext of exts) {
      try {
        accessSync(join(dir, name + ext), constants.X_OK);
        if (statSync(join(dir, name + ext)).isFile()) return true;
      } catch {
        /* not here */
      }
    }
  }
  return false;
}

/** Why `command` cannot run, or whether it names absolute paths that break when they move. */
function driverHealth(command: string, path: string | undefined): { stale?: string; outdated?: string } {
  const files = driverFiles(command);
  if (command.startsWith(PORTABLE_PREFIX)) {
    if (onPath('gitmem', path)) return {};
    const script = files[0];
    if (!onPath('node', path)) return { stale: 'neither gitmem nor node is on PATH' };
    if (script && !existsSync(script)) return { stale: `gitmem is not on PATH and ${script} is missing` };
    return {};
  }
  const missing = files.find((p) => !existsSync(p));
  if (missing) return { stale: `${missing} is missing` };
  if (files.length >= 2)
    return { outdated: `it names the absolute paths ${files.join(' and ')}, and breaks when either moves` };
  return {};
}

/**
 * Read `merge.gitmem.driver` from the repository's config, and check that the command can run: the
 * files it names still exist, or (for the portable form) gitmem or node is on `env.PATH` (a moved or
 * removed gitmem leaves a driver git cannot run: every merge of a memory file then fails). A command in
 * the absolute-path form of earlier versions that still runs is `outdated`.
 * @throws MemoryError `git.unavailable`.
 */
export async function mergeDriverStatus(workTree: string, env: NodeJS.ProcessEnv = process.env): Promise<DriverStatus> {
  const r = await runGit(workTree, ['config', '--get', `merge.${DRIVER_NAME}.driver`]);
  const command = r.code === 0 ? r.stdout.trim() : '';
  if (!command) return { registered: false, command: null };
  return { registered: true, command, ...driverHealth(command, env.PATH) };
}

/**
 * Register the driver in the repository's own config (`.git/config`; never the user's global
 * config). @throws MemoryError `git.unavailable`, `git.failed`.
 */
export async function registerMergeDriver(workTree: string, command: string): Promise<void> {
  for (const [key, value] of [
    [`merge.${DRIVER_NAME}.name`, 'gitmem memory merge (bullets kept once, front-matter by key)'],
    [`merge.${DRIVER_NAME}.driver`, command],
  ] as const) {
    const r = await runGit(workTree, ['config', '--local', key, value]);
    if (r.code !== 0) throw new MemoryError('git.failed', `git config ${key} failed: ${r.stderr.trim()}`);
  }
}
