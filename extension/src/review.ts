// Memory review in VS Code: the Memory Changes view (memory files changed since HEAD, grouped by
// writer, then by entry), VS Code's diff editor for each (HEAD side served by a content provider
// from gitmem/headText), Checkpoint and Discard per file and for all, a hover with the lineage of
// memory lines, and a CodeLens "N memories about this file" on code files entries name.
// deps: vscode, src/protocol only (requests go to the language server's git service).
import * as vscode from 'vscode';
import {
  CheckpointFilesRequest,
  DiscardRequest,
  FileLinksRequest,
  HeadTextRequest,
  LineageRequest,
  MemoryChangesRequest,
  type ChangedMemoryFile,
  type MemoryAboutFile,
} from '../../src/protocol/review.js';
import type { CheckpointResult } from '../../src/protocol/requests.js';
import { checkpointMessage } from './logic.js';

/** What this module needs from the language client. */
export interface ReviewClient {
  sendRequest<R>(method: string, params: unknown): Promise<R>;
}

export const HEAD_SCHEME = 'gitmem-head';

type Node =
  { kind: 'writer'; writer: 'agent' | 'human'; files: ChangedMemoryFile[] } | { kind: 'file'; file: ChangedMemoryFile };

const CHANGE_LETTER = { added: 'A', modified: 'M', deleted: 'D' } as const;

/** Tree of the memory files changed since HEAD: writer → file (labelled by entry id or title). */
export class MemoryChangesTree implements vscode.TreeDataProvider<Node> {
  readonly #changed = new vscode.EventEmitter<Node | undefined>();
  readonly onDidChangeTreeData = this.#changed.event;
  files: ChangedMemoryFile[] = [];
  constructor(
    private readonly client: ReviewClient,
    private readonly root: () => vscode.Uri | undefined,
  ) {}
  refresh(): void {
    this.#changed.fire(undefined);
  }
  getTreeItem(n: Node): vscode.TreeItem {
    if (n.kind === 'writer') {
      const item = new vscode.TreeItem(
        n.writer === 'agent' ? 'Written by an agent' : 'Written by a human',
        vscode.TreeItemCollapsibleState.Expanded,
      );
      item.description = `${n.files.length} file${n.files.length === 1 ? '' : 's'}`;
      item.iconPath = new vscode.ThemeIcon(n.writer === 'agent' ? 'hubot' : 'person');
      item.contextValue = 'gitmem.writer';
      item.id = `writer:${n.writer}`;
      return item;
    }
    const f = n.file;
    const label = f.id ?? f.title ?? f.path.split('/').pop()!;
    const item = new vscode.TreeItem(label, vscode.TreeItemCollapsibleState.None);
    item.id = `file:${f.path}`;
    item.description = `${CHANGE_LETTER[f.change]} · ${f.type ?? f.kind} · ${f.path}`;
    item.tooltip = `${f.path}\n${f.change} since HEAD${f.via ? ` by an agent over ${f.via}${f.at ? ` at ${f.at}` : ''}` : ''}`;
    const r = this.root();
    if (r) item.resourceUri = vscode.Uri.joinPath(r, ...f.path.split('/'));
    item.contextValue = 'gitmem.changedFile';
    item.command = { command: 'gitmem.openChange', title: 'Open Changes', arguments: [f.path] };
    item.iconPath = new vscode.ThemeIcon(
      f.change === 'added' ? 'diff-added' : f.change === 'deleted' ? 'diff-removed' : 'diff-modified',
    );
    return item;
  }
  async getChildren(n?: Node): Promise<Node[]> {
    if (n) return n.kind === 'writer' ? n.files.map((file) => ({ kind: 'file' as const, file })) : [];
    try {
      this.files = (
        await this.client.sendRequest<{ files: ChangedMemoryFile[] }>(MemoryChangesRequest.method, {})
      ).files;
    } catch {
      this.files = [];
    }
    const groups: Node[] = [];
    for (const writer of ['agent', 'human'] as const) {
      const files = this.files.filter((f) => f.writer === writer);
      if (files.length) groups.push({ kind: 'writer', writer, files });
    }
    return groups;
  }
}

/** Register the view, the diff content provider, the review commands, lineage hover and CodeLens. */
export function registerReview(
  context: vscode.ExtensionContext,
  client: ReviewClient,
  root: () => vscode.Uri | undefined,
): { tree: MemoryChangesTree; refresh(): void } {
  const tree = new MemoryChangesTree(client, root);
  const view = vscode.window.createTreeView('gitmem.changes', { treeDataProvider: tree, showCollapseAll: false });
  const headChanged = new vscode.EventEmitter<vscode.Uri>();
  const rel = (uri: vscode.Uri): string | undefined => {
    const r = root();
    if (!r || uri.scheme !== 'file') return undefined;
    const a = r.path.endsWith('/') ? r.path : `${r.path}/`;
    return uri.path.startsWith(a) ? uri.path.slice(a.length) : undefined;
  };
  const headUri = (path: string) => vscode.Uri.from({ scheme: HEAD_SCHEME, path: `/${path}` });
  const fileUri = (path: string) => vscode.Uri.joinPath(root()!, ...path.split('/'));

  let links: Record<string, MemoryAboutFile[]> = {};
  const lensChanged = new vscode.EventEmitter<void>();
  const loadLinks = async () => {
    try {
      links = (await client.sendRequest<{ files: Record<string, MemoryAboutFile[]> }>(FileLinksRequest.method, {}))
        .files;
      lensChanged.fire();
    } catch {
      /* server not ready: next refresh */
    }
  };

  let pending: ReturnType<typeof setTimeout> | undefined;
  const refresh = () => {
    if (pending) clearTimeout(pending);
    pending = setTimeout(() => {
      pending = undefined;
      tree.refresh();
      for (const f of tree.files) headChanged.fire(headUri(f.path));
      void loadLinks();
    }, 150);
  };

  const pathsOf = (arg: unknown): string[] => {
    const n = arg as Node | undefined;
    if (n?.kind === 'file') return [n.file.path];
    if (n?.kind === 'writer') return n.files.map((f) => f.path);
    if (typeof arg === 'string') return [arg];
    return tree.files.map((f) => f.path);
  };

  const checkpoint = async (arg?: unknown) => {
    const paths = pathsOf(arg);
    if (!paths.length) return void vscode.window.showInformationMessage('gitmem: no memory changes to checkpoint.');
    try {
      const res = await client.sendRequest<CheckpointResult>(CheckpointFilesRequest.method, { paths });
      void vscode.window.showInformationMessage(checkpointMessage(res));
      refresh();
      return res;
    } catch (e) {
      void vscode.window.showErrorMessage(`gitmem: checkpoint failed: ${(e as Error).message}`);
      return undefined;
    }
  };

  const discard = async (arg?: unknown, options: { confirmed?: boolean } = {}) => {
    const paths = pathsOf(arg);
    if (!paths.length) return undefined;
    if (!options.confirmed) {
      const what = paths.length === 1 ? paths[0] : `${paths.length} memory files`;
      const ok = await vscode.window.showWarningMessage(
        `Discard the changes to ${what}? They are restored from HEAD (files HEAD does not have are deleted).`,
        { modal: true },
        'Discard',
      );
      if (ok !== 'Discard') return undefined;
    }
    try {
      const res = await client.sendRequest<{ restored: string[]; removed: string[] }>(DiscardRequest.method, { paths });
      refresh();
      return res;
    } catch (e) {
      void vscode.window.showErrorMessage(`gitmem: discard failed: ${(e as Error).message}`);
      return undefined;
    }
  };

  const openChange = async (path: string) => {
    const f = tree.files.find((x) => x.path === path);
    const title = `${path.split('/').pop()} (HEAD ↔ working tree)`;
    // HEAD's side of an added file is empty (the provider answers '' for a path HEAD lacks); a
    // deleted file is compared with an empty right side.
    const right = f?.change === 'deleted' ? headUri(path).with({ query: 'deleted' }) : fileUri(path);
    return vscode.commands.executeCommand('vscode.diff', headUri(path), right, title);
  };

  const openMemories = async (memories: MemoryAboutFile[]) => {
    if (memories.length === 1) return vscode.window.showTextDocument(fileUri(memories[0]!.path));
    const pick = await vscode.window.showQuickPick(
      memories.map((m) => ({
        label: m.id ?? m.title ?? m.path,
        description: [m.type, m.path].filter(Boolean).join(' · '),
        path: m.path,
      })),
      { placeHolder: 'Memories about this file' },
    );
    return pick ? vscode.window.showTextDocument(fileUri(pick.path)) : undefined;
  };

  // Watch memory files on disk: an agent writing over MCP or the CLI refreshes the view.
  const watcher = vscode.workspace.createFileSystemWatcher('**/*.md');
  context.subscriptions.push(
    view,
    headChanged,
    lensChanged,
    watcher,
    watcher.onDidCreate(refresh),
    watcher.onDidChange(refresh),
    watcher.onDidDelete(refresh),
    vscode.workspace.onDidSaveTextDocument(refresh),
    vscode.workspace.registerTextDocumentContentProvider(HEAD_SCHEME, {
      onDidChange: headChanged.event,
      async provideTextDocumentContent(uri) {
        if (uri.query === 'deleted') return '';
        const res = await client.sendRequest<{ text: string | null }>(HeadTextRequest.method, {
          path: uri.path.replace(/^\//, ''),
        });
        return res.text ?? '';
      },
    }),
    vscode.commands.registerCommand('gitmem.refreshChanges', () => {
      tree.refresh();
      void loadLinks();
    }),
    vscode.commands.registerCommand('gitmem.openChange', (arg: unknown) =>
      openChange(typeof arg === 'string' ? arg : pathsOf(arg)[0]!),
    ),
    vscode.commands.registerCommand('gitmem.checkpointFile', (arg: unknown) => checkpoint(arg ?? [])),
    vscode.commands.registerCommand('gitmem.checkpointAll', () => checkpoint(undefined)),
    vscode.commands.registerCommand('gitmem.discardFile', (arg: unknown, options?: { confirmed?: boolean }) =>
      discard(arg, options),
    ),
    vscode.commands.registerCommand('gitmem.discardAll', (_arg: unknown, options?: { confirmed?: boolean }) =>
      discard(undefined, options),
    ),
    vscode.commands.registerCommand('gitmem.openMemoriesAbout', (memories: MemoryAboutFile[]) =>
      openMemories(memories),
    ),
    vscode.languages.registerHoverProvider(
      { scheme: 'file', language: 'markdown' },
      {
        async provideHover(doc, pos) {
          const path = rel(doc.uri);
          if (!path) return undefined;
          const res = await client
            .sendRequest<{
              lines: { commit: string; author: string; date: string } | null;
              file: { commit: string; author: string; date: string } | null;
              entry?: string;
            }>(LineageRequest.method, {
              path,
              startLine: pos.line + 1,
            })
            .catch(() => undefined);
          if (!res || (!res.lines && !res.file)) return undefined;
          const fmt = (l: { commit: string; author: string; date: string }) =>
            `\`${l.commit.slice(0, 7)}\` by ${l.author}, ${l.date.slice(0, 10)} ${l.date.slice(11, 16)} UTC`;
          const md = new vscode.MarkdownString();
          md.appendMarkdown(
            `**gitmem lineage** — line ${pos.line + 1}: ${res.lines ? `last changed in ${fmt(res.lines)}` : 'not committed yet'}`,
          );
          if (res.file)
            md.appendMarkdown(`\n\n${res.entry ? `entry \`${res.entry}\`` : 'file'}: last commit ${fmt(res.file)}`);
          return new vscode.Hover(md);
        },
      },
    ),
    vscode.languages.registerCodeLensProvider(
      { scheme: 'file' },
      {
        onDidChangeCodeLenses: lensChanged.event,
        provideCodeLenses(doc) {
          const path = rel(doc.uri);
          const memories = path ? links[path] : undefined;
          if (!memories?.length) return [];
          const n = memories.length;
          return [
            new vscode.CodeLens(new vscode.Range(0, 0, 0, 0), {
              title: `$(book) ${n} ${n === 1 ? 'memory' : 'memories'} about this file`,
              command: 'gitmem.openMemoriesAbout',
              arguments: [memories],
            }),
          ];
        },
      },
    ),
  );
  void loadLinks();
  return { tree, refresh };
}
