// `gitmem hook prompt`: the prompt-submit lifecycle hook. Reads the user's prompt (an agent's hook
// JSON on stdin, plain text on stdin, or --prompt), recalls memories for it and prints the
// `### Recalled Context` block of the one context-block packer (service/recall/context-block.ts,
// the same block as `recall --budget` and `gitmem context --budget`). Offline and quick: a running
// gitmem host (watch, language server, MCP server) answers in hybrid mode from its fresh index;
// otherwise keyword recall runs in this process (no model load, no embedding). Agents call it before
// every prompt, so the process entry (cli/bin.ts) runs it with only this module, commander and the
// host client loaded; the workspace modules are imported only when no host answers.
// deps: service (types), host (protocol), platform (discover), cli (host, output, options, stdin).
import { Option, type Command } from 'commander';
import type { DocKind } from '../../core/document.js';
import { recallArgs } from '../../host/protocol.js';
import { discoverWorkspace } from '../../platform/discover.js';
import { hookRefusal } from '../../platform/workspace-guard.js';
import type { RecallMode, RecallResponse } from '../../service/recall/types.js';
import { callHost } from '../host.js';
import type { GlobalOptions } from '../open-workspace.js';
import { printJson, err, outText } from '../output.js';
import { parseBudget } from '../options.js';
import { readStdin } from '../stdin.js';

/** Most bytes read from stdin; a longer prompt is recalled by its first part. */
const MAX_STDIN_BYTES = 1024 * 1024;
/** Stdin that stays open this long without ending is read as it is (a hook must never hang). */
const STDIN_WAIT_MS = 3000;
/** Longest prompt recalled for, in characters (recall weighs the first 64 words anyway). */
const MAX_PROMPT_CHARS = 2000;
/** What a prompt is recalled against: not DREAMS.md proposals, not CURRENT_STATE.md (the session-start hook injects it). */
const PROMPT_KINDS: readonly DocKind[] = ['long_term', 'daily', 'entry', 'playbook', 'note'];

/** The prompt and working folder in a hook's stdin: `{"prompt": "...", "cwd": "..."}` or plain text. */
function parseHookInput(raw: string): { prompt: string; cwd?: string } {
  const text = raw.replace(/^\uFEFF/, '').trim();
  if (text.startsWith('{')) {
    try {
      const j = JSON.parse(text) as { prompt?: unknown; cwd?: unknown };
      if (j && typeof j === 'object') {
        return {
          prompt: typeof j.prompt === 'string' ? j.prompt : '',
          ...(typeof j.cwd === 'string' && j.cwd ? { cwd: j.cwd } : {}),
        };
      }
    } catch {
      // Not JSON after all: the text itself is the prompt.
    }
  }
  return { prompt: text };
}

/** `prompt` cut to at most `max` characters at a space when one is near. */
function clipPrompt(prompt: string, max: number): string {
  const p = prompt.replace(/\s+/gu, ' ').trim();
  if (p.length <= max) return p;
  const cut = p.slice(0, max);
  const sp = cut.lastIndexOf(' ');
  return sp > max * 0.8 ? cut.slice(0, sp) : cut;
}

/** Add `prompt` (with its action) to the `hook` command; `globals` are the program's global options. */
export function hookPromptCommand(hook: Command, globals: () => GlobalOptions): Command {
  return hook
    .command('prompt')
    .description(
      'the prompt-submit hook: recall memories for the prompt (hook JSON or text on stdin, or --prompt) and print a "### Recalled Context" block',
    )
    .option('--prompt <text>', 'the prompt (default: read from stdin, plain text or JSON with a "prompt" field)')
    .option('--budget <bytes>', 'most UTF-8 bytes of the block (default 800)', parseBudget)
    .addOption(
      new Option(
        '--mode <mode>',
        'recall mode; default: hybrid when a running gitmem host answers, else keyword (no model load)',
      ).choices(['keyword', 'hybrid']),
    )
    .action((o: { prompt?: string; budget?: number; mode?: RecallMode }) => hookPrompt(o, globals()));
}

async function hookPrompt(o: { prompt?: string; budget?: number; mode?: RecallMode }, g: GlobalOptions): Promise<void> {
  const json = g.json === true;
  const input =
    o.prompt !== undefined
      ? { prompt: o.prompt }
      : parseHookInput(
          process.stdin.isTTY ? '' : await readStdin({ maxBytes: MAX_STDIN_BYTES, waitMs: STDIN_WAIT_MS }),
        );
  const prompt = clipPrompt(input.prompt, MAX_PROMPT_CHARS);
  const budget = o.budget ?? 800;
  const dir = g.dir ?? input.cwd;
  const report = (r: {
    mode: string;
    block: string;
    bytes: number;
    items: number;
    note?: string;
    servedBy?: string;
  }) => {
    if (json) printJson({ prompt, budget, ...r });
    else if (r.block) outText(r.block.trimEnd());
  };
  // Nothing worth recalling: print nothing (the hook adds stdout to the prompt).
  if (!/[\p{L}\p{N}]/u.test(prompt)) return report({ mode: o.mode ?? 'keyword', block: '', bytes: 0, items: 0 });
  // Injected into the prompt without the agent asking: audited, and `recall.inject` applies (service/trust/).
  const opts = { kinds: [...PROMPT_KINDS], budget, limit: 10, audience: 'injected' as const, channel: 'hook' };
  const blockOf = (res: RecallResponse, servedBy?: string) =>
    report({
      mode: res.mode,
      block: res.context?.text ?? '',
      bytes: res.context?.bytes ?? 0,
      items: res.context?.items ?? 0,
      ...(res.context?.note ? { note: res.context.note } : {}),
      ...(servedBy ? { servedBy } : {}),
    });
  const skip = (why: string) => {
    // A prompt hook never blocks the prompt: say why on stderr and inject nothing.
    err(`gitmem: note: no memories recalled for the prompt: ${why}`);
    if (json) printJson({ prompt, budget, mode: o.mode ?? 'keyword', block: '', bytes: 0, items: 0, skipped: why });
  };
  try {
    if (o.mode !== 'keyword') {
      const hosted = await callHost(dir, g.host, 'recall', recallArgs(prompt, { ...opts, mode: 'hybrid' }));
      if (hosted) return blockOf(hosted.result as RecallResponse, hosted.host.kind);
    }
    // A hook set up for every project also runs in folders without memory: never index those.
    const found = discoverWorkspace(dir, process.cwd());
    const refusal = hookRefusal(found);
    // Under --if-workspace a folder without memory is no news: nothing printed, exit 0 (R111).
    if (refusal) return g.ifWorkspace ? undefined : skip(refusal.message);
    // The folder the agent names (hook JSON `cwd`) when --dir is not given; the workspace modules load only now.
    const [{ openWorkspace }, { recall }] = await Promise.all([
      import('../open-workspace.js'),
      import('../../service/recall/recall.js'),
    ]);
    const { memory } = await openWorkspace({ ...g, ...(dir !== undefined ? { dir } : {}) });
    try {
      return blockOf(await recall(memory.context, prompt, { ...opts, mode: o.mode ?? 'keyword' }));
    } finally {
      await memory.dispose();
    }
  } catch (e) {
    skip((e as Error).message);
  }
}
