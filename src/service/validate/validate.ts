// validate: diagnostics for the whole workspace or the named files and folders (schema, links,
// ids, CURRENT_STATE.md, unreadable files; with `code`, stale cited code), sorted.
// deps: core, validate, continuity, engine, service/shared, service/trust.
import { compareDiagnostics, DiagnosticCode, type Diagnostic } from '../../core/diagnostics.js';
import { MemoryError } from '../../core/errors.js';
import type { MemoryDoc } from '../../core/document.js';
import { classify } from '../../core/layout.js';
import { toRelPath } from '../../core/paths.js';
import { validateWorkspace } from '../../validate/validate.js';
import { validateStateDocs } from '../../continuity/validate-state.js';
import { parseFiles } from '../../engine/load/parse-cache.js';
import type { MemoryContext } from '../shared/memory-context.js';

/** What else {@link validate} checks. */
export interface ValidateOptions {
  /** Also check the code memories cite (as `gitmem verify`): stale ones as `memory.code.stale`. */
  readonly code?: boolean;
}

/** `validate`'s input: the files or folders to check (default: the whole workspace) and what else to check. */
export interface ValidateInput extends ValidateOptions {
  readonly paths?: readonly string[] | undefined;
}

/**
 * Validate the workspace, or only `input.paths` (a folder stands for the memory files under it).
 * @throws MemoryError `path.not-memory`, `fs.not-found` for a named path that is not a memory file here;
 *   with `code`, `git.not-a-repository` outside git.
 */
export async function validate(ctx: MemoryContext, input: ValidateInput = {}): Promise<Diagnostic[]> {
  const { paths, ...options } = input;
  const { fs, loaded, config, clock, docCache, read } = ctx;
  const raw = await read();
  const ws = parseFiles(raw.files, config, docCache);
  // A folder argument (`gitmem validate memory/entries`) stands for the memory files under it.
  const known = [...ws.docs().map((d) => d.path as string), ...raw.skipped.map((s) => s.path as string)];
  const wanted = paths?.length
    ? paths.flatMap((p) => {
        const rel = toRelPath(p);
        const under = classify(rel, loaded.layout) ? [] : known.filter((k) => k.startsWith(`${rel}/`));
        return under.length ? under.map((k) => toRelPath(k)) : [rel];
      })
    : undefined;
  if (wanted) {
    for (const p of wanted) {
      if (!classify(p, loaded.layout)) {
        throw new MemoryError('path.not-memory', `${p} is not a memory file in the ${loaded.layout.name} layout`, {
          hint: 'gitmem validate with no paths checks the whole workspace',
        });
      }
      if (!ws.tryGet(p) && !raw.skipped.some((s) => s.path === p)) {
        throw new MemoryError('fs.not-found', `no such memory file: ${p}`);
      }
    }
  }
  // Relative links may point at code or docs outside the memory folders: check them against disk.
  const allFiles = new Set<string>(await fs.list(() => true));
  const diags = [
    ...validateWorkspace(ws, {
      ...(wanted ? { paths: wanted } : {}),
      exists: (p) => allFiles.has(p),
      today: clock.now().toISOString().slice(0, 10),
      load: config.load,
    }),
    ...raw.fileDiagnostics.filter((d) => !wanted || wanted.includes(d.path)),
    // CURRENT_STATE.md schema, staleness and placeholders (continuity/, docs/DESIGN.md §5).
    ...validateStateDocs(
      ws.docs().filter((d) => !wanted || wanted.includes(d.path)),
      { now: clock.now(), staleAfterHours: config.state.staleAfterHours },
    ),
    ...(await foldersAtFileNames(ctx, wanted)),
  ];
  if (options.code)
    diags.push(
      ...(await staleCode(
        ctx,
        ws.docs().filter((d) => !wanted || wanted.includes(d.path)),
      )),
    );
  return diags.sort(compareDiagnostics);
}

/**
 * A folder where the layout names one file (`MEMORY.md`, `DREAMS.md`, `CURRENT_STATE.md`): the walk
 * skips folders, so validate said "No problems found" while every state command failed on it
 * (docs/bad-inputs.md R27). One error per such name.
 */
async function foldersAtFileNames(ctx: MemoryContext, wanted: readonly string[] | undefined): Promise<Diagnostic[]> {
  const { fs, loaded } = ctx;
  const names = (['long_term', 'dreams', 'current_state'] as const)
    .flatMap((k) => loaded.layout.kinds[k])
    .filter((p) => !/[*?[\]{}]/.test(p) && (!wanted || wanted.includes(p)));
  const out: Diagnostic[] = [];
  for (const name of names) {
    const st = await fs.stat(toRelPath(name)).catch(() => undefined);
    if (!st?.isDirectory) continue;
    out.push({
      path: toRelPath(name),
      range: { start: { line: 0, character: 0 }, end: { line: 0, character: 0 } },
      severity: 'error',
      code: DiagnosticCode.fileUnreadable,
      message: `${name} is a folder, not a file: gitmem cannot read or write it (state commands fail on it); move what it holds and put the file back`,
    });
  }
  return out;
}

/** The stale-code diagnostics of `docs` (service/trust: the check `gitmem verify` runs, worded as the editor words it). */
async function staleCode(ctx: MemoryContext, docs: readonly MemoryDoc[]): Promise<Diagnostic[]> {
  const { checkDocument, openCodeChecker } = await import('../trust/verify.js');
  const { staleDiagnostics } = await import('../trust/code-diagnostics.js');
  const { verifiedOf } = await import('../trust/code-check.js');
  const checker = openCodeChecker(ctx);
  const out: Diagnostic[] = [];
  try {
    for (const doc of docs)
      out.push(...staleDiagnostics(doc, (await checkDocument(checker, doc)).stale, verifiedOf(doc.text)));
  } finally {
    await checker.flush();
  }
  return out;
}
