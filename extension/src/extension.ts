// VS Code entry: start the bundled language server (dist/server.js over stdio), and wire the
// commands, the status-bar item and the memory tree to it. Behaviour lives in logic.ts and behind
// the server. deps: vscode, vscode-languageclient, ./logic (src/protocol only).
import * as path from 'node:path';
import * as vscode from 'vscode';
import {
  LanguageClient,
  State,
  TransportKind,
  type LanguageClientOptions,
  type ServerOptions,
} from 'vscode-languageclient/node.js';
import {
  type CodeDiffParams,
  DocumentsRequest,
  GetStatusRequest,
  StatusNotification,
  type MemoryDocumentInfo,
  type StatusParams,
} from '../../src/protocol/requests.js';
import {
  createCommands,
  docLabel,
  groupByKind,
  renameRefusal,
  statusText,
  type RecallPick,
  type Requester,
  type Ui,
} from './logic.js';
import { registerReview } from './review.js';

let client: LanguageClient | undefined;
/** Texts of the read-only diff documents (scheme DIFF_SCHEME), by URI. */
const diffTexts = new Map<string, string>();
const DIFF_SCHEME = 'gitmem-diff';
let diffSeq = 0;
/** The last rename gitmem refused (shown to the user; read by the extension's own tests). */
let lastRefusal: string | undefined;

/** What activate() returns: used by the extension's own tests in a real extension host. */
export interface GitmemApi {
  readonly client: LanguageClient;
  status(): StatusParams | undefined;
  readonly commands: ReturnType<typeof createCommands>;
  /** The message of the last rename gitmem refused (E05), as shown to the user. */
  lastRenameRefusal(): string | undefined;
  /** The Memory Changes view's data (files changed since HEAD, as last listed). */
  readonly review: { readonly files: readonly unknown[] };
}

function workspaceRoot(): vscode.Uri | undefined {
  return vscode.workspace.workspaceFolders?.[0]?.uri;
}

function vscodeUi(): Ui {
  return {
    pickDynamic(placeholder, search) {
      return new Promise<RecallPick | undefined>((resolve) => {
        const qp = vscode.window.createQuickPick<vscode.QuickPickItem & { pick?: RecallPick }>();
        qp.placeholder = placeholder;
        qp.matchOnDescription = true;
        qp.matchOnDetail = true;
        let seq = 0;
        let timer: ReturnType<typeof setTimeout> | undefined;
        qp.onDidChangeValue((value) => {
          if (timer) clearTimeout(timer);
          timer = setTimeout(async () => {
            const mine = ++seq;
            qp.busy = true;
            try {
              const res = await search(value);
              if (mine !== seq) return; // a newer query is on its way
              qp.items = res.items.map((p) => ({
                label: p.label,
                description: p.description,
                detail: p.detail,
                alwaysShow: true,
                pick: p,
              }));
              qp.title = res.message ? `Recall (${res.message})` : 'Recall';
            } catch (e) {
              qp.title = `Recall failed: ${(e as Error).message}`;
            } finally {
              if (mine === seq) qp.busy = false;
            }
          }, 120);
        });
        qp.onDidAccept(() => {
          const chosen = qp.selectedItems[0]?.pick;
          resolve(chosen);
          qp.hide();
        });
        qp.onDidHide(() => {
          resolve(undefined);
          qp.dispose();
        });
        qp.show();
      });
    },
    pick: (placeholder, items) =>
      Promise.resolve(vscode.window.showQuickPick([...items], { placeHolder: placeholder })),
    input: (prompt, options) =>
      Promise.resolve(
        vscode.window.showInputBox({
          prompt,
          ...(options?.value !== undefined ? { value: options.value } : {}),
          ...(options?.placeholder ? { placeHolder: options.placeholder } : {}),
        }),
      ),
    info: (message, ...actions) => Promise.resolve(vscode.window.showInformationMessage(message, ...actions)),
    error: (message) => void vscode.window.showErrorMessage(message),
    async open(rel, startLine, endLine) {
      const root = workspaceRoot();
      if (!root) return;
      const doc = await vscode.workspace.openTextDocument(vscode.Uri.joinPath(root, ...rel.split('/')));
      const editor = await vscode.window.showTextDocument(doc, { preview: false });
      if (startLine !== undefined) {
        const start = new vscode.Position(Math.max(0, startLine - 1), 0);
        const endLineIdx = Math.min(doc.lineCount - 1, Math.max(0, (endLine ?? startLine) - 1));
        const end = doc.lineAt(endLineIdx).range.end;
        editor.selection = new vscode.Selection(start, end);
        editor.revealRange(new vscode.Range(start, end), vscode.TextEditorRevealType.InCenterIfOutsideViewport);
      }
    },
    async showDiff(title, diff) {
      // A read-only virtual document; the .diff name gives it the diff language.
      const name = title.replace(/[^\w.-]+/g, '-');
      const uri = vscode.Uri.from({ scheme: DIFF_SCHEME, path: `/${name}.diff`, query: String(++diffSeq) });
      diffTexts.set(uri.toString(), diff);
      const doc = await vscode.workspace.openTextDocument(uri);
      await vscode.window.showTextDocument(doc, { preview: true });
    },
    async showMarkdown(_title, markdown) {
      const doc = await vscode.workspace.openTextDocument({ language: 'markdown', content: markdown });
      await vscode.window.showTextDocument(doc, { preview: true });
    },
    selection() {
      const editor = vscode.window.activeTextEditor;
      if (!editor || editor.selection.isEmpty) return undefined;
      const root = workspaceRoot();
      const file = editor.document.uri;
      const rel =
        root && file.scheme === 'file' ? path.relative(root.fsPath, file.fsPath).split(path.sep).join('/') : undefined;
      return {
        text: editor.document.getText(editor.selection),
        ...(rel && !rel.startsWith('..') ? { path: rel } : {}),
      };
    },
  };
}

type TreeNode = { kind: 'group'; label: string; docs: MemoryDocumentInfo[] } | { kind: 'doc'; doc: MemoryDocumentInfo };

class MemoryTree implements vscode.TreeDataProvider<TreeNode> {
  readonly #changed = new vscode.EventEmitter<TreeNode | undefined>();
  readonly onDidChangeTreeData = this.#changed.event;
  constructor(private readonly fetch: () => Promise<MemoryDocumentInfo[]>) {}
  refresh(): void {
    this.#changed.fire(undefined);
  }
  getTreeItem(n: TreeNode): vscode.TreeItem {
    if (n.kind === 'group') {
      const item = new vscode.TreeItem(n.label, vscode.TreeItemCollapsibleState.Collapsed);
      item.description = String(n.docs.length);
      return item;
    }
    const { label, description } = docLabel(n.doc);
    const item = new vscode.TreeItem(label, vscode.TreeItemCollapsibleState.None);
    item.description = description;
    item.tooltip = n.doc.path;
    item.resourceUri = workspaceRoot() ? vscode.Uri.joinPath(workspaceRoot()!, ...n.doc.path.split('/')) : undefined;
    item.command = { command: 'gitmem.openDocument', title: 'Open', arguments: [n.doc.path] };
    if (n.doc.errors) item.iconPath = new vscode.ThemeIcon('error');
    return item;
  }
  async getChildren(n?: TreeNode): Promise<TreeNode[]> {
    if (!n)
      return groupByKind(await this.fetch().catch(() => [])).map((g) => ({
        kind: 'group' as const,
        label: g.label,
        docs: g.docs,
      }));
    return n.kind === 'group' ? n.docs.map((doc) => ({ kind: 'doc' as const, doc })) : [];
  }
}

export async function activate(context: vscode.ExtensionContext): Promise<GitmemApi> {
  const config = vscode.workspace.getConfiguration('gitmem');
  const serverModule = context.asAbsolutePath(path.join('dist', 'server.js'));
  // A platform .vsix carries onnxruntime-node (one target's native binding) in dist/node_modules/ and
  // the model in models/: the server finds both by itself. Without them recall says why in the status bar.
  const run = { module: serverModule, transport: TransportKind.stdio };
  const serverOptions: ServerOptions = { run, debug: run };
  const output = vscode.window.createOutputChannel('gitmem');
  const modelDir = config.get<string>('modelDir')?.trim();
  const clientOptions: LanguageClientOptions = {
    documentSelector: [{ scheme: 'file', language: 'markdown' }],
    outputChannel: output,
    // B30: no `synchronize.fileEvents` here: the server registers the one file watcher it needs.
    initializationOptions: { ...(modelDir ? { modelDir } : {}), debug: config.get<boolean>('debug') === true },
    middleware: {
      // E05: a rejected rename goes on to VS Code's next rename provider (its built-in markdown one),
      // which would rename what gitmem refused. A refusal answers an empty edit and says why instead.
      async provideRenameEdits(document, position, newName, token, next) {
        try {
          return await next(document, position, newName, token);
        } catch (e) {
          const refusal = renameRefusal(e);
          if (refusal === undefined) throw e;
          lastRefusal = refusal;
          void vscode.window.showErrorMessage(refusal);
          return new vscode.WorkspaceEdit();
        }
      },
    },
  };
  const c = new LanguageClient('gitmem', 'gitmem memory server', serverOptions, clientOptions);
  client = c;
  const requester: Requester = { sendRequest: (type, params) => c.sendRequest(type as never, params) as never };
  const ui = vscodeUi();
  const commands = createCommands(requester, ui);

  let last: StatusParams | undefined;
  const bar = vscode.window.createStatusBarItem('gitmem.status', vscode.StatusBarAlignment.Left, 10);
  bar.name = 'gitmem';
  bar.command = 'gitmem.reindex';
  const paint = () => {
    const t = statusText(last);
    bar.text = t.text;
    bar.tooltip = t.tooltip;
    bar.show();
  };
  paint();

  const tree = new MemoryTree(async () => (await c.sendRequest(DocumentsRequest, {})).documents);
  context.subscriptions.push(
    output,
    bar,
    vscode.window.registerTreeDataProvider('gitmem.memory', tree),
    vscode.commands.registerCommand('gitmem.recall', () => commands.recall()),
    vscode.commands.registerCommand('gitmem.rememberSelection', () => commands.rememberSelection()),
    vscode.commands.registerCommand('gitmem.checkpoint', () => commands.checkpoint()),
    vscode.commands.registerCommand('gitmem.showCurrentState', () => commands.showCurrentState()),
    vscode.commands.registerCommand('gitmem.reviewChanges', () => commands.reviewChanges()),
    vscode.commands.registerCommand('gitmem.reindex', () => commands.reindex()),
    vscode.workspace.registerTextDocumentContentProvider(DIFF_SCHEME, {
      provideTextDocumentContent: (uri) => diffTexts.get(uri.toString()) ?? '',
    }),
    vscode.workspace.onDidCloseTextDocument((d) => diffTexts.delete(d.uri.toString())),
    // The stale-code code action's command (its argument: gitmem/codeDiff's parameters).
    vscode.commands.registerCommand('gitmem.openCodeDiff', (params: CodeDiffParams) => commands.codeDiff(params)),
    vscode.commands.registerCommand('gitmem.refreshTree', () => tree.refresh()),
    vscode.commands.registerCommand('gitmem.openDocument', (rel: string) => ui.open(rel)),
    vscode.commands.registerCommand('gitmem.restartServer', async () => {
      await c.restart();
    }),
    c.onDidChangeState((e) => {
      // B29: say so when the server stops, and offer a restart (the client's own retries are capped).
      if (e.newState === State.Stopped && e.oldState === State.Running) {
        last = { state: 'error', message: 'the memory server stopped' };
        paint();
        void vscode.window
          .showWarningMessage('gitmem: the memory server stopped.', 'Restart memory server')
          .then((a) => {
            if (a) void vscode.commands.executeCommand('gitmem.restartServer');
          });
      }
    }),
  );
  // One handler per notification type (a second onNotification would replace this one).
  // Assigned below, after the status callback that reads it is registered.
  // eslint-disable-next-line prefer-const
  let review: ReturnType<typeof registerReview> | undefined;
  c.onNotification(StatusNotification, (s) => {
    const wasReady = last?.state === 'ready';
    last = s;
    paint();
    if (s.state === 'ready' || wasReady) tree.refresh();
    if (s.state === 'ready') review?.refresh();
  });
  await c.start();
  review = registerReview(context, { sendRequest: (method, params) => c.sendRequest(method, params) }, workspaceRoot);
  last = await c.sendRequest(GetStatusRequest, {}).catch(() => last);
  paint();
  review.refresh();
  return { client: c, status: () => last, lastRenameRefusal: () => lastRefusal, commands, review: review.tree };
}

export async function deactivate(): Promise<void> {
  await client?.stop();
  client = undefined;
}
