// Memory-instruction context for agent prompts (planning, executor, reviewer): what the agent may do
// with memory under the configured backend. Path hints only for the `file` backend, read-only wording
// for non-writable backends, nothing at all when memory is disabled. deps: core, backends (registry).
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { CONFIG_FILE } from '../core/config.js';
import { detectLayout, layoutPreset, LAYOUT_NAMES, type LayoutName } from '../core/layout.js';
import { resolveMemoryBackend } from './registry.js';
import type { MemoryBackendCapabilities, MemoryBackendSettings } from './types.js';

/** The agent roles a host builds prompts for. */
export type MemoryPromptRole = 'planning' | 'executor' | 'reviewer';
export const MEMORY_PROMPT_ROLES: readonly MemoryPromptRole[] = ['planning', 'executor', 'reviewer'];

/** Everything the prompt wording depends on. */
export interface MemoryInstructionContext {
  /** false when `settings.memoryEnabled === false` (instructions are then empty). */
  readonly enabled: boolean;
  readonly backendType: string;
  readonly backendName: string;
  readonly capabilities: MemoryBackendCapabilities;
  readonly layout: LayoutName;
  /** Long-term file path (workspace-relative): set only for the `file` backend, else null. */
  readonly instructionPathHint: string | null;
  /** Daily-note path pattern (`…/YYYY-MM-DD.md`): set only for the `file` backend, else null. */
  readonly dailyPathHint: string | null;
}

/** Where the instruction builders look for the layout. */
export interface MemoryInstructionOptions {
  /** Layout for the path hints (wins over `rootDir`). */
  readonly layout?: LayoutName;
  /** Project root: its gitmem.config.json `layout`, else the files present, pick the layout. Default layout: `default`. */
  readonly rootDir?: string;
}

/**
 * Resolve the backend (as {@link resolveMemoryBackend}) and the layout into an instruction context.
 * Never throws; reads at most gitmem.config.json and a few `exists` probes under `rootDir`.
 */
export function resolveMemoryInstructionContext(
  settings?: MemoryBackendSettings | null,
  options: MemoryInstructionOptions = {},
): MemoryInstructionContext {
  const backend = resolveMemoryBackend(settings);
  const layout = options.layout ?? (options.rootDir ? layoutOfRoot(options.rootDir) : 'default');
  const isFile = backend.type === 'file';
  const preset = layoutPreset(layout);
  let longTerm = preset.kinds.long_term[0]!;
  if (options.rootDir) longTerm = preset.kinds.long_term.find((p) => existsSync(join(options.rootDir!, p))) ?? longTerm;
  const dir = preset.memoryDir;
  return {
    enabled: settings?.memoryEnabled !== false,
    backendType: backend.type,
    backendName: backend.name,
    capabilities: { ...backend.capabilities },
    layout,
    instructionPathHint: isFile ? longTerm : null,
    dailyPathHint: isFile ? `${dir ? `${dir}/` : ''}YYYY-MM-DD.md` : null,
  };
}

/**
 * The "## Project Memory" prompt section for `role`.
 * @returns `''` when memory is disabled (`memoryEnabled: false`) or the backend is not readable.
 */
export function buildMemoryInstructions(
  role: MemoryPromptRole,
  settings?: MemoryBackendSettings | null,
  options: MemoryInstructionOptions = {},
): string {
  return renderMemoryInstructions(role, resolveMemoryInstructionContext(settings, options));
}

/** {@link buildMemoryInstructions} for the planning (triage / specification) prompt. */
export function buildPlanningMemoryInstructions(
  settings?: MemoryBackendSettings | null,
  options?: MemoryInstructionOptions,
): string {
  return buildMemoryInstructions('planning', settings, options);
}

/** {@link buildMemoryInstructions} for the executor prompt. */
export function buildExecutorMemoryInstructions(
  settings?: MemoryBackendSettings | null,
  options?: MemoryInstructionOptions,
): string {
  return buildMemoryInstructions('executor', settings, options);
}

/** {@link buildMemoryInstructions} for the reviewer prompt. */
export function buildReviewerMemoryInstructions(
  settings?: MemoryBackendSettings | null,
  options?: MemoryInstructionOptions,
): string {
  return buildMemoryInstructions('reviewer', settings, options);
}

/** Render the section from an already-resolved context (hosts that cache the context use this). */
function renderMemoryInstructions(role: MemoryPromptRole, ctx: MemoryInstructionContext): string {
  if (!ctx.enabled || !ctx.capabilities.readable) return '';
  const writable = ctx.capabilities.writable;
  const file = ctx.instructionPathHint !== null;
  const lt = ctx.instructionPathHint ? `\`${ctx.instructionPathHint}\`` : '';
  const daily = ctx.dailyPathHint ? `\`${ctx.dailyPathHint}\`` : '';
  const find = file
    ? `search ${lt} and the recent daily notes (${daily}) for the task's key terms, and open only the sections you need`
    : "use `memory_search` with the task's key terms, then `memory_get` for the exact lines a result points to";

  const intro: string[] = [];
  if (!writable) {
    intro.push(
      'This project keeps a memory of durable learnings (decisions, conventions, pitfalls).',
      '**Memory is read-only in this run:** consult it, but do not write, edit or append to memory, and do not propose memory changes.',
    );
  } else if (file) {
    intro.push(
      'This project keeps its memory in plain markdown files:',
      `- ${lt}: curated long-term memory (decisions, conventions, pitfalls), one bullet per fact under a heading`,
      `- ${daily}: daily notes, append-mostly running context`,
    );
  } else {
    intro.push(
      `This project keeps a persistent memory of durable learnings (decisions, conventions, pitfalls), served by the ${ctx.backendName} backend.`,
      'Reach it through the memory tools rather than reading memory files directly.',
    );
  }

  const steps: string[] = [];
  if (role === 'planning') {
    steps.push(
      `Before planning, ${find}.`,
      'Build the plan on the recorded decisions and conventions; say so explicitly where the plan departs from one.',
      'If memory has nothing relevant, skip it: do not read all of memory by default.',
    );
    if (writable)
      steps.push('Name in the plan any durable learning the work is likely to produce, so the executor can record it.');
  } else if (role === 'executor') {
    steps.push(`At the start, ${find} (the files and subsystems you will touch).`);
    if (writable) {
      const where = file
        ? `in ${lt} (or today's daily note, ${daily}, for running context)`
        : 'through the memory write tool';
      steps.push(
        `At the end, record only durable, reusable learnings ${where}: a decision and its reason, a convention, a pitfall and its fix.`,
        'Skip the update when nothing durable was learned. Edit or consolidate existing bullets instead of appending duplicates.',
        'Never store secrets, credentials, personal data or task-specific trivia in memory.',
      );
    } else {
      steps.push(
        'Do not update memory at the end of the task, even if you learned something durable; mention it in your summary instead.',
      );
    }
  } else {
    steps.push(
      `Before reviewing, ${find}.`,
      'Check the change against the recorded decisions and conventions; flag every contradiction and cite the memory line it breaks.',
    );
    steps.push(
      writable
        ? 'If the review surfaces a durable convention or pitfall that memory lacks, say so in the review; leave the memory edit to the executor.'
        : 'Do not suggest memory edits.',
    );
  }
  return ['## Project Memory', '', ...intro, '', ...steps.map((s, i) => `${i + 1}. ${s}`), ''].join('\n');
}

/** Layout of a root without async I/O: config `layout`, else detection from a few existence probes. */
function layoutOfRoot(root: string): LayoutName {
  try {
    const cfg = JSON.parse(readFileSync(join(root, CONFIG_FILE), 'utf8').replace(/^\uFEFF/, '')) as {
      layout?: unknown;
    };
    if (typeof cfg.layout === 'string' && (LAYOUT_NAMES as readonly string[]).includes(cfg.layout))
      return cfg.layout as LayoutName;
  } catch {
    /* no or unreadable config: detect */
  }
  return detectLayout({ exists: (p) => existsSync(join(root, p)) });
}
