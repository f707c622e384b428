// `gitmem context <task...>`: context for starting a task — top memories, playbook entries and files
// recommended from their links (service/ace/knowledge-queries.ts taskContext). Agents call it at the
// start of a task, so the process entry (cli/bin.ts) runs it with only this module, commander and the
// host client loaded: a running host (watch, language server, MCP server) answers from its fresh
// index, else the workspace modules are imported and it runs in this process. Same output either way.
// deps: service (types), cli (host, output, options, open-workspace on the cold path), core.
import type { Command } from 'commander';
import { MemoryError, shownValue } from '../../core/errors.js';
import type { TaskContext } from '../../service/ace/knowledge-queries.js';
import { codeLabel } from '../../service/trust/recall-code.js';
import { callHost, hostReport } from '../host.js';
import type { GlobalOptions } from '../open-workspace.js';
import { bold, cyan, dim, out, printJson, red, resultMarks, yellow, err, outText } from '../output.js';
import { parseBudget } from '../options.js';

/** Add `context` (with its action) to `program`; `globals` are the program's global options. */
export function contextCommand(program: Command, globals: () => GlobalOptions): Command {
  return program
    .command('context')
    .description('context for starting a task: top memories, playbook entries and recommended files')
    .argument('<task...>', 'the task description')
    .option('--limit <n>', 'memories and playbook entries each (default 5)', (v: string) => {
      const n = Number(v);
      if (!Number.isInteger(n) || n < 1 || n > 50)
        throw new MemoryError('usage', `--limit must be an integer 1-50, got ${shownValue(v)}`);
      return n;
    })
    .option(
      '--budget <bytes>',
      'print the memories as a "### Recalled Context" block of at most this many UTF-8 bytes',
      parseBudget,
    )
    .action(async (words: string[], o: { limit?: number; budget?: number }) => {
      const g = globals();
      const task = words.join(' ');
      const args = { ...(o.limit ? { limit: o.limit } : {}), ...(o.budget !== undefined ? { budget: o.budget } : {}) };
      const hosted = await callHost(g.dir, g.host, 'context', { task, ...args }, hostReport(g));
      showContext(
        hosted ? (hosted.result as TaskContext) : await coldContext(g, task, args),
        g.json === true,
        o.budget,
      );
    });
}

/** `taskContext` in this process: the workspace and ACE modules are imported only now. */
async function coldContext(g: GlobalOptions, task: string, args: { limit?: number; budget?: number }) {
  const [{ openWorkspace }, { taskContext }] = await Promise.all([
    import('../open-workspace.js'),
    import('../../service/ace/knowledge-queries.js'),
  ]);
  const { memory } = await openWorkspace(g);
  try {
    return await taskContext(memory.context, { task, ...args });
  } finally {
    await memory.dispose();
  }
}

function showContext(c: TaskContext, json: boolean, budget: number | undefined): void {
  if (json) return printJson(c);
  if (budget !== undefined) {
    outText(c.block ?? '');
    return;
  }
  if (c.degraded) err(`gitmem: note: ${c.degraded}`);
  out(bold('Memories'));
  if (!c.memories.length) out(dim('  none'));
  for (const r of c.memories) {
    // The trust marks an agent needs beside the text: cited code changed, unreviewed or incoming (R102).
    const marks = resultMarks(r, true);
    out(
      `  ${cyan(`${r.path}:${r.startLine}`)}${r.entry ? ` ${yellow(`[${r.entry.type}]`)}` : ''}${marks.length ? ` ${red(`[${marks.join('; ')}]`)}` : ''} ${r.snippet.replace(/\s+/g, ' ').slice(0, 140)}`,
    );
  }
  out(bold('Playbook'));
  if (!c.playbook.length) out(dim('  none'));
  for (const p of c.playbook) {
    const marks = [codeLabel(p.code) ?? '', p.review && p.review !== 'reviewed' ? p.review : ''].filter(Boolean);
    const mark = marks.length ? ` ${red(`[${marks.join('; ')}]`)}` : '';
    out(`  ${yellow(p.category)} ${p.id}${mark} ${dim(`priority ${p.priority}`)} — ${p.title}`);
  }
  out(bold('Files'));
  if (!c.files.length) out(dim('  none'));
  for (const f of c.files) out(`  ${f.path} ${dim(`(${f.from.join(', ')})`)}`);
}
