// The extension's behaviour without VS Code: command flows over an abstract UI and a request
// sender, plus pure formatting (status bar, recall picks, memory tree, diff report). extension.ts
// adapts these to the vscode API; tests drive them against the real server in-process.
// deps: src/protocol only (ARCHITECTURE §2: the extension imports nothing else from the project).
import {
  CodeDiffRequest,
  type CodeDiffParams,
  type CodeDiffResult,
  CheckpointRequest,
  DocumentsRequest,
  MemoryDiffRequest,
  RecallRequest,
  ReindexRequest,
  RememberRequest,
  SnapshotRequest,
  type CheckpointResult,
  type MemoryDiffResult,
  type MemoryDocumentInfo,
  type MemoryKind,
  type RecallHit,
  type RecallResult,
  type SnapshotResult,
  type StatusParams,
} from '../../src/protocol/requests.js';

/** What the commands need from the language client (LanguageClient and ProtocolConnection both fit). */
export interface Requester {
  sendRequest<P, R>(type: { readonly method: string; readonly _?: unknown } & object, params: P): Promise<R>;
}

/** One recall pick. */
export interface RecallPick {
  label: string;
  description: string;
  detail: string;
  path: string;
  startLine: number;
  endLine: number;
}

/** The editor operations the commands use (extension.ts implements them over vscode). */
export interface Ui {
  /** A quick pick whose items come from `search(text)` as the user types; resolves to the accepted item. */
  pickDynamic(
    placeholder: string,
    search: (query: string) => Promise<{ items: RecallPick[]; message?: string }>,
  ): Promise<RecallPick | undefined>;
  pick(placeholder: string, items: readonly string[]): Promise<string | undefined>;
  input(prompt: string, options?: { value?: string; placeholder?: string }): Promise<string | undefined>;
  info(message: string, ...actions: string[]): Promise<string | undefined>;
  error(message: string): void;
  /** Open a workspace-relative file and select lines (1-based, inclusive). */
  open(path: string, startLine?: number, endLine?: number): Promise<void>;
  /** Show generated markdown (a report) in a read-only preview. */
  showMarkdown(title: string, markdown: string): Promise<void>;
  /** Show a unified diff in a read-only virtual document named `title`. */
  showDiff(title: string, diff: string): Promise<void>;
  /** The active editor's selection and its file, or undefined when nothing is selected. */
  selection(): { text: string; path?: string } | undefined;
}

export const ENTRY_TYPES = [
  'learning',
  'decision',
  'error_fix',
  'discovery',
  'warning',
  'codebase_knowledge',
  'preference',
] as const;

const KIND_LABELS: Record<MemoryKind, string> = {
  long_term: 'Long-term memory',
  current_state: 'Current state',
  entry: 'Entries',
  playbook: 'Playbook',
  daily: 'Daily notes',
  dreams: 'Dreams',
  note: 'Notes',
};
const KIND_ORDER: MemoryKind[] = ['current_state', 'long_term', 'entry', 'playbook', 'daily', 'dreams', 'note'];

/** Status-bar text and tooltip for a server status. */
export function statusText(s: StatusParams | undefined): { text: string; tooltip: string } {
  if (!s) return { text: '$(sync~spin) gitmem', tooltip: 'gitmem: starting the memory server' };
  switch (s.state) {
    case 'starting':
      return { text: '$(sync~spin) gitmem', tooltip: `gitmem: ${s.message ?? 'starting'}` };
    case 'indexing':
      return { text: '$(sync~spin) gitmem: indexing', tooltip: `gitmem: ${s.message ?? 'indexing memory'}` };
    case 'error':
      return { text: '$(error) gitmem', tooltip: `gitmem: ${s.message ?? 'error'} (click to retry)` };
    case 'ready': {
      const parts = [`${s.files ?? 0} files`, `${s.chunks ?? 0} chunks`];
      if (s.vectors !== null && s.vectors !== undefined) parts.push(`${s.vectors} vectors`);
      const fresh = s.indexedAt ? `indexed ${s.indexedAt.replace('T', ' ').slice(0, 19)}` : '';
      // The recall mode this server process really has: hybrid only with vectors and no degradation.
      const hybrid = !s.degraded && s.vectors !== null && s.vectors !== undefined;
      const mode = hybrid
        ? 'recall: hybrid (keyword + vectors)'
        : `recall: keyword only — ${s.degraded || 'semantic recall is not available'}`;
      const tooltip = [`gitmem: ready — ${parts.join(', ')}`, mode, fresh].filter(Boolean).join('\n');
      return { text: hybrid ? '$(database) gitmem: hybrid' : '$(warning) gitmem: keyword', tooltip };
    }
  }
}

/** Quick-pick rows for a recall answer. */
export function recallPicks(res: RecallResult): RecallPick[] {
  return res.results.map((r: RecallHit) => ({
    label: r.entry?.id ?? (r.headingPath.length ? r.headingPath[r.headingPath.length - 1]! : r.path.split('/').pop()!),
    description: `${r.path}:${r.startLine}${r.endLine !== r.startLine ? `-${r.endLine}` : ''}${r.entry?.type ? ` · ${r.entry.type}` : ''}`,
    detail: r.snippet.replace(/\s+/g, ' ').trim(),
    path: r.path,
    startLine: r.startLine,
    endLine: r.endLine,
  }));
}

/** Memory documents grouped by kind, in a fixed order, empty kinds left out. */
export function groupByKind(
  docs: readonly MemoryDocumentInfo[],
): { kind: MemoryKind; label: string; docs: MemoryDocumentInfo[] }[] {
  return KIND_ORDER.map((kind) => ({
    kind,
    label: KIND_LABELS[kind],
    docs: docs.filter((d) => d.kind === kind),
  })).filter((g) => g.docs.length > 0);
}

/** Tree label of one document: id or title for entries, the file name otherwise. */
export function docLabel(d: MemoryDocumentInfo): { label: string; description: string } {
  const name = d.path.split('/').pop()!;
  if (d.id)
    return {
      label: d.id,
      description: [d.type, d.errors ? `${d.errors} error${d.errors > 1 ? 's' : ''}` : ''].filter(Boolean).join(' · '),
    };
  return { label: d.title ?? name, description: d.errors ? `${d.errors} error${d.errors > 1 ? 's' : ''}` : '' };
}

const show = (v: unknown) => (v === undefined ? '∅' : typeof v === 'string' ? v : JSON.stringify(v));

/** A memory diff as a markdown report. */
export function diffMarkdown(d: MemoryDiffResult): string {
  const to = d.to ? `${d.to.rev} (${d.to.oid.slice(0, 7)})` : 'the work tree';
  const out = [`# Memory changes: ${d.from.rev} (${d.from.oid.slice(0, 7)}) → ${to}`, ''];
  if (!d.changes.length) return [...out, 'No memory changes.'].join('\n');
  out.push(`${d.summary.added} added, ${d.summary.changed} changed, ${d.summary.removed} removed`, '');
  for (const c of d.changes) {
    out.push(
      `## ${c.change} ${c.kind}${c.id ? ` \`${c.id}\`` : ''} — \`${c.path}\`${c.renamedFrom ? ` (moved from \`${c.renamedFrom}\`)` : ''}`,
      '',
    );
    for (const f of c.fields) out.push(`- **${f.key}**: ${show(f.before)} → ${show(f.after)}`);
    for (const s of c.sections) out.push(`- **## ${s.name}**: ${show(s.before?.trim())} → ${show(s.after?.trim())}`);
    if (c.linesAdded.length) {
      out.push('', '```diff', ...c.linesAdded.map((l) => `+ ${l.text}`), ...(c.truncated ? ['+ …'] : []), '```');
    }
    if (c.linesRemoved) out.push(`- ${c.linesRemoved} line${c.linesRemoved > 1 ? 's' : ''} removed`);
    out.push('');
  }
  return out.join('\n');
}

/** The message after a checkpoint. */
export function checkpointMessage(r: CheckpointResult): string {
  if (r.kind === 'nothing-to-commit') return 'gitmem: nothing to commit — memory matches HEAD.';
  const n = r.changes.added.length + r.changes.modified.length + r.changes.deleted.length;
  const big = r.oversized ?? [];
  const skipped = big.length
    ? `; not indexed (over limits.maxFileBytes, recall and validate skip ${big.length === 1 ? 'it' : 'them'}): ${big.map((f) => f.path).join(', ')}`
    : '';
  return `gitmem: checkpoint ${r.oid.slice(0, 7)} on ${r.branch ?? 'detached HEAD'} — ${r.summary} (${n} file${n === 1 ? '' : 's'})${skipped}`;
}

function errorText(e: unknown): string {
  const data = (e as { data?: { code?: string; hint?: string } })?.data;
  const msg = (e as Error)?.message ?? String(e);
  return `gitmem: ${msg}${data?.hint ? ` — ${data.hint}` : ''}`;
}

/**
 * The reason gitmem refused a rename it had claimed (a planner's MemoryError, sent with its `data.code`:
 * a heading name that would break `[[links]]` (E05), a taken or unusable id), or undefined for any
 * other failure (`nothing to rename here`, carrying no data, or an internal error). VS Code passes a
 * provider's rejection on to the next rename provider (its built-in markdown rename), which would
 * then do what gitmem refused; a refusal must end the rename instead (extension.ts middleware).
 */
export function renameRefusal(e: unknown): string | undefined {
  const code = (e as { data?: { code?: unknown } })?.data?.code;
  if (typeof code !== 'string' || code === 'internal') return undefined;
  return errorText(e);
}

/**
 * The text of a cited file's diff since a memory (`gitmem/codeDiff`): the unified diff, or a line
 * saying the file is unchanged.
 */
export function codeDiffText(r: CodeDiffResult): string {
  const since = r.since.slice(0, 7);
  if (!r.diff) return `# ${r.movedTo ?? r.path} is unchanged since ${since}\n`;
  const what = r.deleted ? 'deleted' : r.movedTo ? `moved to ${r.movedTo}` : 'changed';
  return `# ${r.path} since ${since} (${what}), from the memory's stale-code diagnostic\n${r.diff}`;
}

/** The command flows. Each catches its own errors and reports them through the UI. */
export function createCommands(
  server: Requester,
  ui: Ui,
  options: { documents?: () => Promise<MemoryDocumentInfo[]> } = {},
) {
  const documents =
    options.documents ??
    (async () =>
      (await server.sendRequest<unknown, { documents: MemoryDocumentInfo[] }>(DocumentsRequest, {})).documents);
  return {
    /** Recall…: search as you type; open the chosen memory at its lines. */
    async recall(): Promise<RecallPick | undefined> {
      try {
        const picked = await ui.pickDynamic('Recall memory: type what you are looking for', async (query) => {
          if (!query.trim()) return { items: [] };
          const res = await server.sendRequest<unknown, RecallResult>(RecallRequest, { query, limit: 20 });
          return { items: recallPicks(res), ...(res.degraded ? { message: res.degraded } : {}) };
        });
        if (picked) await ui.open(picked.path, picked.startLine, picked.endLine);
        return picked;
      } catch (e) {
        ui.error(errorText(e));
        return undefined;
      }
    },

    /** Remember Selection: the selected text becomes a typed entry (deduplicated by the server). */
    async rememberSelection(): Promise<unknown> {
      const sel = ui.selection();
      if (!sel || !sel.text.trim()) {
        ui.error('gitmem: select the text to remember first');
        return undefined;
      }
      const type = await ui.pick('Memory type', ENTRY_TYPES);
      if (!type) return undefined;
      const tagText = await ui.input('Tags (comma-separated, optional)', { placeholder: 'search, ci' });
      if (tagText === undefined) return undefined;
      try {
        const tags = tagText
          .split(',')
          .map((t) => t.trim())
          .filter(Boolean);
        const files = sel.path && !/(^|\/)memory\//.test(sel.path) ? [sel.path] : [];
        const res = await server.sendRequest<
          unknown,
          { status: string; id: string; path: string; duplicateOf?: string }
        >(RememberRequest, {
          text: sel.text,
          type,
          ...(tags.length ? { tags } : {}),
          ...(files.length ? { files } : {}),
        });
        const msg =
          res.status === 'duplicate'
            ? `gitmem: already remembered as ${res.duplicateOf} (${res.path})`
            : `gitmem: remembered ${res.id}`;
        if ((await ui.info(msg, 'Open')) === 'Open') await ui.open(res.path);
        return res;
      } catch (e) {
        ui.error(errorText(e));
        return undefined;
      }
    },

    /** Checkpoint Memory: commit the memory files (and nothing else). */
    async checkpoint(): Promise<CheckpointResult | undefined> {
      const message = await ui.input('Checkpoint message (empty: a summary of the changes)', {
        placeholder: 'memory: …',
      });
      if (message === undefined) return undefined;
      try {
        const res = await server.sendRequest<unknown, CheckpointResult>(
          CheckpointRequest,
          message.trim() ? { message: message.trim() } : {},
        );
        void ui.info(checkpointMessage(res));
        return res;
      } catch (e) {
        ui.error(errorText(e));
        return undefined;
      }
    },

    /** Show Current State: the working-state snapshot, else CURRENT_STATE.md itself. */
    async showCurrentState(): Promise<SnapshotResult | undefined> {
      try {
        const snap = await server.sendRequest<unknown, SnapshotResult>(SnapshotRequest, {});
        if (snap.active && typeof snap.text === 'string') {
          await ui.showMarkdown('Current state', snap.text);
          return snap;
        }
        const state = (await documents()).find((d) => d.kind === 'current_state');
        if (state) await ui.open(state.path);
        else void ui.info(`gitmem: no working state${snap.reason ? ` (${snap.reason})` : ''}`);
        return snap;
      } catch (e) {
        ui.error(errorText(e));
        return undefined;
      }
    },

    /** Review Memory Changes: a memory diff from a revision to the work tree. */
    async reviewChanges(): Promise<MemoryDiffResult | undefined> {
      const from = await ui.input('Compare memory since which revision?', { value: 'HEAD' });
      if (from === undefined) return undefined;
      try {
        const diff = await server.sendRequest<unknown, MemoryDiffResult>(MemoryDiffRequest, {
          from: from.trim() || 'HEAD',
        });
        await ui.showMarkdown('Memory changes', diffMarkdown(diff));
        return diff;
      } catch (e) {
        ui.error(errorText(e));
        return undefined;
      }
    },

    /** Show the changes to a memory's cited code since the memory (the stale-code code action's command). */
    async codeDiff(params: CodeDiffParams): Promise<CodeDiffResult | undefined> {
      try {
        const r = await server.sendRequest<CodeDiffParams, CodeDiffResult>(CodeDiffRequest, params);
        await ui.showDiff(`${r.path} since ${r.since.slice(0, 7)}`, codeDiffText(r));
        return r;
      } catch (e) {
        ui.error(errorText(e));
        return undefined;
      }
    },

    /** Update Memory Index. */
    async reindex(): Promise<StatusParams | undefined> {
      try {
        return await server.sendRequest<unknown, StatusParams>(ReindexRequest, {});
      } catch (e) {
        ui.error(errorText(e));
        return undefined;
      }
    },
  };
}
