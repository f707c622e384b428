// The extension's own tests inside a real VS Code extension host (code-server 4.99 = VS Code 1.99),
// loaded through `extensionTestsPath` by scripts/e2e-vscode.mjs (bundled to CommonJS with esbuild;
// `vscode` is the host's module). The extension under test is the unpacked platform .vsix (model and
// onnxruntime inside) that the UI run installed (`extensionDevelopmentPath`). Workspace: a temp copy
// of fixtures/workspaces/demo plus the broken entry memory/entries/wrong-type.md. Results go to results.json next to this bundle; the page
// closes itself when run() settles.
import * as assert from 'node:assert/strict';
import { renameSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import * as vscode from 'vscode';

interface Result {
  name: string;
  ok: boolean;
  ms: number;
  error?: string;
}

/** What the extension's activate() returns (extension/src/extension.ts GitmemApi), as used here. */
interface Api {
  client: { state: number; sendRequest(method: string, params: unknown): Promise<any> };
  status():
    | {
        state: string;
        files?: number;
        chunks?: number;
        vectors?: number | null;
        vectorsPending?: number;
        degraded?: string | null;
      }
    | undefined;
  commands: { reindex(): Promise<{ state: string } | undefined> };
  lastRenameRefusal(): string | undefined;
}

const STATE_RUNNING = 2; // vscode-languageclient State.Running

async function until<T>(what: string, fn: () => T | undefined | Promise<T | undefined>, ms = 30_000): Promise<T> {
  const end = Date.now() + ms;
  for (;;) {
    const v = await fn();
    if (v !== undefined && v !== false) return v;
    if (Date.now() > end) throw new Error(`timed out after ${ms} ms waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

export async function run(): Promise<void> {
  const results: Result[] = [];
  const started = Date.now();
  const test = async (name: string, fn: () => Promise<void>) => {
    const t0 = Date.now();
    try {
      await fn();
      results.push({ name, ok: true, ms: Date.now() - t0 });
    } catch (e) {
      results.push({ name, ok: false, ms: Date.now() - t0, error: String((e as Error)?.stack ?? e) });
    }
  };
  const root = vscode.workspace.workspaceFolders?.[0]?.uri;
  const file = (rel: string) => vscode.Uri.joinPath(root!, ...rel.split('/'));
  let api: Api | undefined;

  await test('the extension activates in the workspace and its language client runs', async () => {
    assert.ok(root, 'a workspace folder is open');
    const ext = vscode.extensions.getExtension<Api>('gitmem.gitmem');
    assert.ok(ext, 'extension gitmem.gitmem is loaded');
    api = await ext.activate();
    assert.equal(api.client.state, STATE_RUNNING);
    const commands = await vscode.commands.getCommands(true);
    for (const c of [
      'gitmem.recall',
      'gitmem.rememberSelection',
      'gitmem.checkpoint',
      'gitmem.showCurrentState',
      'gitmem.reviewChanges',
    ])
      assert.ok(commands.includes(c), c);
  });

  await test('the server indexes the workspace and reports ready (status bar state)', async () => {
    const s = await until('status ready', () => (api?.status()?.state === 'ready' ? api.status() : undefined), 60_000);
    assert.ok((s.files ?? 0) >= 10, `files: ${s.files}`);
    assert.ok((s.chunks ?? 0) > 0, `chunks: ${s.chunks}`);
  });

  await test('hybrid recall with no setting: the platform .vsix brings the model and the runtime', async () => {
    // `ready` comes once the keyword index is published; the vectors follow in the background (B41).
    const s = await until(
      'vectors caught up',
      () => {
        const x = api?.status();
        return x?.state === 'ready' && (x.vectorsPending ?? 0) === 0 ? x : undefined;
      },
      180_000,
    );
    assert.equal(s.degraded, null, `degraded: ${s.degraded}`);
    assert.ok((s.vectors ?? 0) > 0, `vectors: ${s.vectors}`);
    assert.equal(vscode.workspace.getConfiguration('gitmem').get('modelDir'), '');
    const res = await api!.client.sendRequest('gitmem/recall', {
      query: 'cryptographic seal of a payload must be checked prior to decoding',
      limit: 10,
    });
    assert.equal(res.mode, 'hybrid');
    assert.equal(res.degraded, null);
    assert.ok(
      res.results.some(
        (r: { path: string; scores: { vector: number | null } }) =>
          r.path.endsWith('verify-webhooks-before-parsing.md') && r.scores.vector !== null,
      ),
      JSON.stringify(res.results.map((r: { path: string }) => r.path)),
    );
  });

  await test('live text: an unsaved edit reaches recall and diagnostics without a save', async () => {
    const uri = file('memory/entries/2026-11-25-prefer-small-prs.md');
    const doc = await vscode.workspace.openTextDocument(uri);
    await vscode.window.showTextDocument(doc);
    const edit = new vscode.WorkspaceEdit();
    edit.insert(uri, new vscode.Position(doc.lineCount, 0), '\nThe quokkaflux rollout needs two reviewers.\n');
    const typeLine = doc
      .getText()
      .split('\n')
      .findIndex((l) => l.startsWith('type:'));
    edit.replace(uri, new vscode.Range(typeLine, 0, typeLine, doc.lineAt(typeLine).text.length), 'type: opinion');
    assert.ok(await vscode.workspace.applyEdit(edit));
    assert.ok(doc.isDirty, 'the document is unsaved');
    await until(
      'recall of the unsaved word',
      async () => {
        const res = await api!.client.sendRequest('gitmem/recall', { query: 'quokkaflux', limit: 5, mode: 'keyword' });
        return res.results.some((r: { path: string }) => r.path === 'memory/entries/2026-11-25-prefer-small-prs.md')
          ? true
          : undefined;
      },
      20_000,
    );
    await until(
      'diagnostic on the unsaved type',
      () =>
        vscode.languages.getDiagnostics(uri).some((d) => d.code === 'memory.schema.invalid-value') ? true : undefined,
      20_000,
    );
    assert.ok(doc.isDirty, 'still unsaved');
    await vscode.commands.executeCommand('workbench.action.files.revert');
  });

  await test('diagnostics: the broken entry gets the schema error on its type line', async () => {
    const uri = file('memory/entries/wrong-type.md');
    await vscode.window.showTextDocument(await vscode.workspace.openTextDocument(uri));
    const diags = await until('diagnostics on wrong-type.md', () => {
      const d = vscode.languages.getDiagnostics(uri).filter((x) => x.source === 'gitmem');
      return d.some((x) => x.code === 'memory.schema.invalid-value') ? d : undefined;
    });
    const bad = diags.find((x) => x.code === 'memory.schema.invalid-value')!;
    assert.equal(bad.severity, vscode.DiagnosticSeverity.Error);
    assert.equal(bad.range.start.line, 2);
    assert.match(bad.message, /type must be one of/);
    assert.ok(diags.some((x) => x.code === 'memory.schema.unknown-field' && /colour/.test(x.message)));
  });

  await test('completion: memory types after `type:`', async () => {
    const uri = file('memory/entries/wrong-type.md');
    const list = await vscode.commands.executeCommand<vscode.CompletionList>(
      'vscode.executeCompletionItemProvider',
      uri,
      new vscode.Position(2, 6),
    );
    const labels = list.items.map((i) => (typeof i.label === 'string' ? i.label : i.label.label));
    for (const t of ['decision', 'learning', 'error_fix']) assert.ok(labels.includes(t), `${t} in ${labels.join(',')}`);
  });

  const linkPos = new vscode.Position(18, 14); // inside [[2026-11-22-bigint-columns-are-strings]]
  const linking = 'memory/entries/2026-11-20-postgres-connection-pool.md';
  await test('hover on an entry link previews the linked memory', async () => {
    const hovers = await vscode.commands.executeCommand<vscode.Hover[]>(
      'vscode.executeHoverProvider',
      file(linking),
      linkPos,
    );
    const text = hovers.flatMap((h) => h.contents.map((c) => (typeof c === 'string' ? c : c.value))).join('\n');
    assert.match(text, /bigint/i);
  });

  await test('definition of an entry link is the linked entry', async () => {
    const defs = await vscode.commands.executeCommand<(vscode.Location | vscode.LocationLink)[]>(
      'vscode.executeDefinitionProvider',
      file(linking),
      linkPos,
    );
    const targets = defs.map((d) => ('targetUri' in d ? d.targetUri : d.uri).path);
    assert.ok(
      targets.some((p) => p.endsWith('/memory/entries/2026-11-22-bigint-columns-are-strings.md')),
      targets.join(','),
    );
  });

  await test('document symbols are the headings', async () => {
    const symbols = await vscode.commands.executeCommand<vscode.DocumentSymbol[]>(
      'vscode.executeDocumentSymbolProvider',
      file('memory/MEMORY.md'),
    );
    const names = symbols.flatMap((s) => [s.name, ...s.children.map((c) => c.name)]);
    for (const n of ['Memory', 'Decisions', 'Gotchas']) assert.ok(names.includes(n), names.join(','));
  });

  await test('gitmem/recall through the running client', async () => {
    const res = await api!.client.sendRequest('gitmem/recall', { query: 'webhook signature', limit: 5 });
    assert.equal(res.results[0]?.path, 'memory/playbook/verify-webhooks-before-parsing.md');
    assert.ok(res.results[0].startLine >= 1 && res.results[0].endLine >= res.results[0].startLine);
  });

  await test('Update Memory Index (gitmem.reindex) answers ready', async () => {
    const s = await vscode.commands.executeCommand<{ state: string } | undefined>('gitmem.reindex');
    assert.equal(s?.state, 'ready');
  });

  await test('renaming a memory file rewrites the links to it (willRenameFiles edits, applied by VS Code)', async () => {
    // An entry without `id:` (its id is its file name) and a note that links to it both ways.
    const base = root!.fsPath;
    writeFileSync(
      join(base, 'memory', 'entries', 'rename-me.md'),
      '---\ntype: learning\ntags: [e2e]\n---\n\nRenamed in the explorer.\n',
    );
    writeFileSync(
      join(base, 'memory', 'entries', 'links-to-it.md'),
      '---\ntype: learning\ntags: [e2e]\n---\n\nSee [[rename-me]] and [the file](rename-me.md).\n',
    );
    const linkingUri = file('memory/entries/links-to-it.md');
    // The server has seen both files once a definition of the link answers.
    await until('server sees the new files', async () => {
      const defs = await vscode.commands.executeCommand<(vscode.Location | vscode.LocationLink)[]>(
        'vscode.executeDefinitionProvider',
        linkingUri,
        new vscode.Position(5, 8),
      );
      return defs?.length ? defs : undefined;
    });
    const edit = new vscode.WorkspaceEdit();
    edit.renameFile(file('memory/entries/rename-me.md'), file('memory/entries/renamed-in-explorer.md'));
    assert.ok(await vscode.workspace.applyEdit(edit), 'rename applied');
    const text = await until('links rewritten', async () => {
      const t = (await vscode.workspace.openTextDocument(linkingUri)).getText();
      return t.includes('[[renamed-in-explorer]]') && t.includes('(renamed-in-explorer.md)') ? t : undefined;
    });
    assert.match(text, /See \[\[renamed-in-explorer\]\] and \[the file\]\(renamed-in-explorer\.md\)\./);
  });

  await test('a refused heading rename (E05, E10) stays refused: VS Code does not fall back to its markdown rename', async () => {
    const base = root!.fsPath;
    const target = '---\ntype: learning\ntags: [e2e]\n---\n\n# Pool sizing\n\nTwenty connections.\n';
    writeFileSync(join(base, 'memory', 'entries', 'heading-target.md'), target);
    writeFileSync(
      join(base, 'memory', 'entries', 'heading-linker.md'),
      '---\ntype: learning\ntags: [e2e]\n---\n\nSee [[heading-target#Pool sizing]].\n',
    );
    const targetUri = file('memory/entries/heading-target.md');
    await until('server sees the heading link', async () => {
      const defs = await vscode.commands.executeCommand<(vscode.Location | vscode.LocationLink)[]>(
        'vscode.executeDefinitionProvider',
        file('memory/entries/heading-linker.md'),
        new vscode.Position(5, 10),
      );
      return defs?.length ? defs : undefined;
    });
    const doc = await vscode.workspace.openTextDocument(targetUri);
    await vscode.window.showTextDocument(doc);
    const heading = new vscode.Position(5, 4);
    // The same provider chain as F2: gitmem answers first, and its refusal must end the rename.
    let refused: unknown;
    let edit: vscode.WorkspaceEdit | undefined;
    try {
      edit = await vscode.commands.executeCommand<vscode.WorkspaceEdit>(
        'vscode.executeDocumentRenameProvider',
        targetUri,
        heading,
        'Pool ]] sizing',
      );
    } catch (e) {
      refused = e;
    }
    const planned = edit
      ? edit.entries().flatMap(([u, es]) => es.map((e) => `${u.path.split('/').pop()}: ${e.newText}`))
      : [];
    assert.deepEqual(planned, [], `a fallback rename planned edits: ${planned.join(' | ')}`);
    if (refused) assert.match(String((refused as Error).message ?? refused), /would break the 1 link/);
    else assert.match(api!.lastRenameRefusal() ?? '(none shown)', /"Pool \]\] sizing" .*would break the 1 link/);
    assert.equal(doc.getText(), target);
    // A plain name is still renamed by gitmem, its [[link]] anchor included.
    const ok = await vscode.commands.executeCommand<vscode.WorkspaceEdit>(
      'vscode.executeDocumentRenameProvider',
      targetUri,
      heading,
      'Pool limits',
    );
    const files = ok.entries().map(([u]) => u.path.split('/').pop());
    assert.ok(files.includes('heading-linker.md'), `edits in ${files.join(',')}`);
  });

  const failed = results.filter((r) => !r.ok).length;
  // Written whole, then renamed: the driver polls for results.json and must never read half a file.
  writeFileSync(
    join(__dirname, 'results.json.tmp'),
    JSON.stringify({ vscode: vscode.version, ms: Date.now() - started, results }, null, 2),
  );
  renameSync(join(__dirname, 'results.json.tmp'), join(__dirname, 'results.json'));
  console.log(`gitmem extension-host tests: ${results.length - failed} passed, ${failed} failed`);
  if (failed) throw new Error(`${failed} extension-host test(s) failed`);
}
