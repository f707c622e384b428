// ACE executor (docs/DESIGN.md §6): from a completed task, the entry to write — its title, body
// and links, from the files it touched (tool-files.ts, shell-events.ts), its memory type
// (classify.ts) and its tags (task-tags.ts). Pure and deterministic; imports only core.
import { ENTRY_TYPES, type EntryType } from '../core/document.js';
import { entryIdBase } from '../core/entry-id.js';
import { normalise } from '../core/words.js';
import { titleOf } from './text.js';
import type { Classification, Insight, LinkedFile, TaskInput } from './types.js';
import { extractFiles } from './tool-files.js';
import { classifyTask } from './classify.js';
import { extractTags } from './task-tags.js';

// ---------------------------------------------------------------------------------------------
// The entry to write

/** What the executor decided to write (the service renders it, dedupes it and picks the file). */
export interface EntryPlan {
  readonly type: EntryType;
  readonly classification: Classification;
  readonly title: string;
  /** `YYYY-MM-DD-<slug>` (core/entry-id.ts entryIdBase); the entry writer appends `-2`, `-3` … on collision. */
  readonly baseId: string;
  readonly tags: readonly string[];
  readonly files: readonly LinkedFile[];
  /** Front-matter fields, in file order (id/created filled in by the service). */
  readonly data: Readonly<Record<string, unknown>>;
  /** Markdown body (starts with a blank line). */
  readonly body: string;
  /** Text compared for dedupe: goal + result + feedback, normalised. */
  readonly dedupeText: string;
}

const oneLine = (s: string) => s.replace(/\s+/g, ' ').trim();

/** Title for a task: a short form of the goal, or of the result when the goal is generic. */
function taskTitle(input: Pick<TaskInput, 'goal' | 'result'>): string {
  const g = titleOf(oneLine(input.goal));
  const t = g.length >= 8 ? g : titleOf(oneLine(input.result));
  return t.charAt(0).toUpperCase() + t.slice(1);
}

/**
 * Plan the entry for a completed task: type, title, tags, linked files, front-matter and body.
 * `insights` (from the reflector) are listed in the body so recall finds them.
 */
export function planEntry(
  input: TaskInput,
  context: {
    now: Date;
    cwd?: string;
    knownTags?: readonly string[];
    insights?: readonly Insight[];
    files?: readonly LinkedFile[];
  },
): EntryPlan {
  const files = context.files ?? extractFiles(input.tool_usage, context.cwd ? { cwd: context.cwd } : {});
  const classification = classifyTask(input, files);
  const type = input.type && (ENTRY_TYPES as readonly string[]).includes(input.type) ? input.type : classification.type;
  const tags = extractTags(input, { files, type, ...(context.knownTags ? { knownTags: context.knownTags } : {}) });
  const title = taskTitle(input);
  const source: Record<string, string> = {};
  if (input.agent) source.agent = input.agent;
  if (input.session) source.session = input.session;
  if (input.task) source.task = input.task;
  source.origin = 'complete-task';
  const data: Record<string, unknown> = {
    type,
    title,
    tags: [...tags],
    ...(files.length
      ? {
          files: files.map((f) => ({
            path: f.path,
            relation: f.relation,
            ...(f.lines ? { lines: [...f.lines] } : {}),
          })),
        }
      : {}),
    created: context.now.toISOString().replace(/\.\d{3}Z$/, 'Z'),
    source,
    goal: oneLine(input.goal),
    result: oneLine(input.result),
    ...(input.feedback?.trim() ? { feedback: oneLine(input.feedback) } : {}),
    status: 'active',
  };
  const lines: string[] = ['', `# ${title}`, '', oneLine(input.result)];
  if (input.feedback?.trim()) lines.push('', `Feedback: ${oneLine(input.feedback)}`);
  const insights = context.insights ?? [];
  if (insights.length) {
    lines.push('', '## Insights', '');
    for (const i of insights)
      lines.push(`- ${i.kind === 'root_cause' ? 'Root cause' : i.kind === 'gotcha' ? 'Gotcha' : 'Pattern'}: ${i.text}`);
  }
  if (files.length) {
    lines.push('', '## Files', '');
    for (const f of files)
      lines.push(`- \`${f.path}\` (${f.relation}${f.lines ? `, lines ${f.lines[0]}–${f.lines[1]}` : ''})`);
  }
  return {
    type,
    classification,
    title,
    baseId: entryIdBase(context.now, title),
    tags,
    files,
    data,
    body: `${lines.join('\n')}\n`,
    dedupeText: normalise([input.goal, input.result, input.feedback ?? ''].map(oneLine).join(' \n ')),
  };
}
