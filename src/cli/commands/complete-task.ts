// `gitmem complete-task`: turn a finished task (JSON from --input or stdin) into a typed, linked memory and
// playbook changes (service/ace/complete-task.ts).
// Rendering only. deps: service, core, cli.
import { readFileSync } from 'node:fs';
import { type Command } from 'commander';
import { jsonParseProblem, MemoryError, shownValue } from '../../core/errors.js';
import { completeTask } from '../../service/ace/complete-task.js';
import { withWorkspace, type CliContext } from '../context.js';
import { renderPossibleConflict, bold, cyan, dim, out, printJson, yellow, err } from '../output.js';
import { readStdin } from '../stdin.js';

/** The task JSON from `--input <file>`, `--input -`, or piped stdin. */
async function readTask(input: string | undefined): Promise<unknown> {
  let text: string;
  if (input === undefined || input === '-') {
    if (input === undefined && process.stdin.isTTY) {
      throw new MemoryError('usage', 'no task given', {
        hint: 'gitmem complete-task --input task.json (or pipe the JSON on stdin)',
      });
    }
    text = await readStdin();
  } else {
    try {
      text = readFileSync(input, 'utf8');
    } catch (e) {
      // shownValue and the errno code: Node's message repeats the path raw, line breaks and all (T18).
      throw new MemoryError(
        'fs.not-found',
        `cannot read ${shownValue(input)}: ${(e as NodeJS.ErrnoException).code ?? String(e)}`,
      );
    }
  }
  try {
    return JSON.parse(text.replace(/^\uFEFF/, ''));
  } catch (e) {
    throw new MemoryError('usage', `the task is not valid JSON: ${jsonParseProblem(e)}`, {
      hint: '{"goal": "...", "result": "...", "tool_usage": [...], "feedback": "..."}',
    });
  }
}

const short = (oid: string | null) => (oid ? oid.slice(0, 7) : '-');

/** Add `complete-task` (with its action) to `program`. */
export function completeTaskCommand(program: Command, ctx: CliContext): Command {
  return program
    .command('complete-task')
    .description('turn a finished task into a typed, linked memory and playbook changes (each a commit in git)')
    .option('--input <file>', 'task JSON file, or - for stdin (default: stdin when piped)')
    .option('--no-commit', 'write the files but do not commit')
    .option('--force', 'commit even when possible secrets are found')
    .action(async (o: { input?: string; commit?: boolean; force?: boolean }) => {
      const task = await readTask(o.input);
      const res = await withWorkspace(ctx, ({ memory, gitdir, workTree }) =>
        completeTask(memory.context, {
          git: { gitdir, workTree },
          task,
          ...(o.commit === false ? { commit: false } : {}),
          ...(o.force ? { force: true } : {}),
        }),
      );
      if (ctx.json()) return printJson(res);
      if (res.status === 'duplicate') {
        out(`Duplicate of ${res.duplicateOf} (${res.path}); nothing written.`);
        return;
      }
      out(`${bold('memory')}    ${res.memoryId} ${yellow(`[${res.type}]`)} → ${cyan(res.path)}`);
      renderPossibleConflict(res.possible_conflict, res.memoryId);
      if (res.tags.length) out(`${bold('tags')}      ${res.tags.join(', ')}`);
      for (const f of res.filesLinked)
        out(`${bold('file')}      ${f.path} ${dim(`${f.relation}${f.lines ? ` ${f.lines[0]}-${f.lines[1]}` : ''}`)}`);
      for (const i of res.insights) out(`${bold('insight')}   ${dim(i.kind)} ${i.text}`);
      for (const r of res.relatedPlaybook)
        out(`${bold('related')}   ${r.id}${r.supportingAdded ? dim(' (supporting += new memory)') : ''}`);
      for (const d of res.deltas) out(`${bold('playbook')}  ${d.op} ${d.id} ${dim(`${d.path} ${short(d.commit)}`)}`);
      for (const r of res.rejected) out(dim(`rejected  ${r.delta.op} ${r.delta.id}: ${r.reason}`));
      if (res.recall.degraded) err(`gitmem: note: ${res.recall.degraded}`);
      out(
        dim(
          res.commit
            ? `${res.commits.length} commit${res.commits.length === 1 ? '' : 's'}, HEAD ${short(res.commit)} (${res.tookMs.toFixed(0)} ms)`
            : `not committed (${res.tookMs.toFixed(0)} ms)`,
        ),
      );
    });
}
