// `gitmem state snapshot|set|new|validate|handoff|absorb`: working-state continuity (docs/DESIGN.md §5).
// Rendering only; behaviour lives in service/state/state.ts. deps: service, platform, core (cli layer).
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { Option, type Command } from 'commander';
import { MemoryError, shownValue } from '../../core/errors.js';
import {
  stateAbsorb,
  stateHandoff,
  stateNew,
  stateSet,
  stateSnapshot,
  stateValidate,
  type StateInput,
  type StateSetResult,
} from '../../service/state/state.js';
import type { MemoryContext } from '../../service/shared/memory-context.js';
import type { CheckpointResult } from '../../service/git-ops/checkpoint.js';
import { withWorkspace, type CliContext } from '../context.js';
import { dim, err, out, printDiagnostics, printJson, outText } from '../output.js';
import { expectedHashOf, parseExpectHash } from '../options.js';

/** Repeatable option that keeps commas (decisions and results are sentences). */
const many = (v: string, prev: string[] = []) => [...prev, v];

function positive(name: string) {
  return (v: string) => {
    const n = Number(v);
    if (!Number.isFinite(n) || n <= 0)
      throw new MemoryError('usage', `${name} must be a positive number, got ${shownValue(v)}`);
    return n;
  };
}

/** Run a working-state use case over the opened workspace's context, with its repository as `git`. */
async function withState<T>(ctx: CliContext, fn: (state: MemoryContext, where: StateInput) => Promise<T>): Promise<T> {
  return withWorkspace(ctx, (opened) =>
    fn(opened.memory.context, { git: { gitdir: opened.gitdir, workTree: opened.workTree } }),
  );
}

function noteCheckpoint(cp: CheckpointResult | undefined): void {
  if (!cp) return;
  if (cp.kind === 'committed') out(dim(`checkpoint ${cp.oid.slice(0, 7)}: ${cp.summary}`));
  else out(dim('checkpoint: nothing to commit'));
}

/** Add `state` and its subcommands to `program`. */
export function registerStateCommands(program: Command, ctx: CliContext): void {
  const state = program
    .command('state')
    .description(
      'working-state continuity (CURRENT_STATE.md): snapshot, show, set, new (archive it and start fresh), validate, handoff and absorb (sub-agents)',
    );

  state
    .command('snapshot')
    .description(
      'compact continuity block for an agent (empty when no work is active); the session-start hook. Quoted data: secrets masked, lines flagged as instructions and unreviewed incoming state withheld (`state show` has every line)',
    )
    .option(
      '--max-tokens <n>',
      'hard cap of the text in estimated tokens (default: config state.snapshotMaxTokens, 300)',
      positive('--max-tokens'),
    )
    .option(
      '--stale-after <hours>',
      'stale after this many hours (default: config state.staleAfterHours, 24)',
      positive('--stale-after'),
    )
    .action(async (o: { maxTokens?: number; staleAfter?: number }) => {
      const snap = await withState(ctx, (s, where) =>
        stateSnapshot(s, {
          ...where,
          ...(o.maxTokens ? { maxTokens: o.maxTokens } : {}),
          ...(o.staleAfter ? { staleAfterHours: o.staleAfter } : {}),
        }),
      );
      if (ctx.json()) printJson(snap);
      // Idle prints nothing: a SessionStart hook injects stdout into every session.
      else if (snap.active) outText(snap.text);
    });

  state
    .command('show')
    .description(
      "the working state for a person: every line, lines flagged as instructions labelled, secrets masked, the file's commit and review state",
    )
    .option('--max-tokens <n>', 'hard cap of the text in estimated tokens', positive('--max-tokens'))
    .action(async (o: { maxTokens?: number }) => {
      const snap = await withState(ctx, (s, where) =>
        stateSnapshot(s, { ...where, audience: 'person', ...(o.maxTokens ? { maxTokens: o.maxTokens } : {}) }),
      );
      if (ctx.json()) printJson(snap);
      else if (snap.active) outText(snap.text);
      else out('No active working state.');
    });

  state
    .command('set')
    .description('update fields of CURRENT_STATE.md (atomic replace; bumps Last updated); the pre-compaction hook')
    .option('--objective <text>', 'what the work is for (a placeholder such as "None" or "idle" ends it)')
    .option('--step <text>', 'the current step')
    .option('--decision <text>', 'a key decision (repeatable; appended unless already there)', many)
    .option('--next <text>', 'the next action')
    .option('--blocker <text>', 'a blocker (repeatable; appended)', many)
    .option('--result <text>', 'a result the user has not seen yet (repeatable; appended)', many)
    .addOption(
      new Option('--clear <list>', 'empty a list before adding (repeatable): decisions, blockers or results').argParser(
        (v: string, prev: string[] = []) => {
          if (!['decisions', 'blockers', 'results'].includes(v)) {
            throw new MemoryError('usage', `--clear takes decisions, blockers or results, got ${shownValue(v)}`);
          }
          return [...prev, v];
        },
      ),
    )
    .option(
      '--expect-hash <hash>',
      'fail with a conflict unless the file still has this content hash ("none": must not exist)',
      parseExpectHash,
    )
    .option('--if-changed', 'write only when a field changes (the post-turn hook)')
    .option('--commit', 'checkpoint-commit the memory afterwards')
    .option('-m, --message <msg>', 'commit message for --commit')
    .action(async (o: Record<string, any>) => {
      const update = {
        ...(o.objective !== undefined ? { objective: o.objective as string } : {}),
        ...(o.step !== undefined ? { step: o.step as string } : {}),
        ...(o.next !== undefined ? { next: o.next as string } : {}),
        ...(o.decision ? { decisions: o.decision as string[] } : {}),
        ...(o.blocker ? { blockers: o.blocker as string[] } : {}),
        ...(o.result ? { results: o.result as string[] } : {}),
        ...(o.clear ? { clear: o.clear as ('decisions' | 'blockers' | 'results')[] } : {}),
      };
      const options = {
        ...expectedHashOf(o.expectHash as string | undefined),
        ...(o.commit ? { commit: (o.message as string | undefined) ?? true } : {}),
        ...(o.ifChanged ? { ifChanged: true } : {}),
      };
      const res: StateSetResult = await withState(ctx, (s, where) => stateSet(s, { ...where, update, ...options }));
      // Written as asked (the file is the person's), but said: agents will not be handed these lines.
      for (const w of res.warnings ?? []) err(`gitmem: warning: ${w}`);
      if (ctx.json()) printJson(res);
      else {
        out(
          res.written
            ? `Updated ${res.path}${res.changed.length ? ` (${res.changed.join(', ')})` : ' (time only)'}`
            : `No change to ${res.path}; nothing written.`,
        );
        noteCheckpoint(res.checkpoint);
      }
    });

  state
    .command('new')
    .description(
      "start fresh: archive the current state into today's daily note (results included), then reset to the template",
    )
    .option(
      '--expect-hash <hash>',
      'fail with a conflict unless the file still has this content hash ("none": must not exist)',
      parseExpectHash,
    )
    .option('--commit', 'checkpoint-commit the memory afterwards')
    .option('-m, --message <msg>', 'commit message for --commit')
    .action(async (o: { expectHash?: string; commit?: boolean; message?: string }) => {
      const res = await withState(ctx, (s, where) =>
        stateNew(s, {
          ...where,
          ...expectedHashOf(o.expectHash),
          ...(o.commit ? { commit: o.message ?? true } : {}),
        }),
      );
      if (ctx.json()) printJson(res);
      else {
        out(
          res.archived
            ? `Archived the working state to ${res.archived.path} (${res.archived.results} unsurfaced result${res.archived.results === 1 ? '' : 's'}).`
            : 'Nothing to archive.',
        );
        out(`Reset ${res.path} to the template.`);
        noteCheckpoint(res.checkpoint);
      }
    });

  state
    .command('validate')
    .description('check CURRENT_STATE.md: sections, Last updated, staleness, placeholders, setext underlines')
    .action(async () => {
      const diags = await withState(ctx, (s, where) => stateValidate(s, where));
      printDiagnostics(diags, ctx.json());
    });

  state
    .command('handoff')
    .description('compact seed for a child agent: objective, current step, key decisions')
    .option('--max-tokens <n>', 'hard cap in estimated tokens', positive('--max-tokens'))
    .action(async (o: { maxTokens?: number }) => {
      const seed = await withState(ctx, (s, where) =>
        stateHandoff(s, { ...where, ...(o.maxTokens ? { maxTokens: o.maxTokens } : {}) }),
      );
      if (ctx.json()) printJson(seed);
      else if (seed.text) outText(seed.text);
      else out('No active working state to hand off.');
    });

  state
    .command('absorb')
    .description("bring a child agent's Unsurfaced Results back into this state (nothing else changes)")
    .argument('<file>', "the child's CURRENT_STATE.md ('-' reads standard input)")
    .option(
      '--expect-hash <hash>',
      'fail with a conflict unless the file still has this content hash ("none": must not exist)',
      parseExpectHash,
    )
    .option('--commit', 'checkpoint-commit the memory afterwards')
    .action(async (file: string, o: { expectHash?: string; commit?: boolean }) => {
      let text: string;
      try {
        text = readFileSync(file === '-' ? 0 : resolve(process.cwd(), file), 'utf8');
      } catch (e) {
        throw new MemoryError(
          'fs.not-found',
          `cannot read ${shownValue(file)}: ${(e as NodeJS.ErrnoException).code ?? String(e)}`, // T18
        );
      }
      const res = await withState(ctx, (s, where) =>
        stateAbsorb(s, {
          ...where,
          childText: text,
          ...expectedHashOf(o.expectHash),
          ...(o.commit ? { commit: true } : {}),
        }),
      );
      if (ctx.json()) printJson(res);
      else {
        out(
          res.added.length
            ? `Absorbed ${res.added.length} result${res.added.length === 1 ? '' : 's'} into ${res.path}.`
            : 'Nothing new to absorb.',
        );
        if (res.duplicates.length) out(dim(`${res.duplicates.length} already present`));
        noteCheckpoint(res.checkpoint);
      }
    });
}
