// The text guards every gitmem write shares, in one place: the secret scan (core/secrets.ts) and the
// instruction check (core/injection.ts) of what a write brings in. The allow markers
// (`gitmem:allow-secret`, `gitmem:allow-instruction`) are a person's word on a line already in a file
// they edited by hand; text arriving through a write path (CLI remember, append, state, complete-task,
// import; MCP tools; the language server's gitmem/remember; ACE; the memory tool) is scanned as if
// they were absent, so an agent cannot exempt its own text, and no refusal offers them. The file
// system port runs {@link refuseInWrite} on every write (platform/node-fs.ts); the use cases that
// derive names or several files from their inputs run {@link refuseInInput} first. Pure.
import { MemoryError } from './errors.js';
import { INJECTION_ALLOW_MARKER, injectionOfLine } from './injection.js';
import { ALLOW_MARKER, newLines, refuseSecretsInInput, refuseSecretsInWrite } from './secrets.js';

/** A line that carries `gitmem:allow-instruction` and reads as an instruction without it. */
export interface MarkedInstruction {
  /** The file path, or the input's field name. */
  readonly path: string;
  /** 1-based line. */
  readonly line: number;
  /** What the injection check found, e.g. `asks to ignore earlier instructions`. */
  readonly reason: string;
}

/** The lines of `lines` that carry the instruction marker and are flagged once it is ignored. */
function markedInstructions(
  path: string,
  lines: Iterable<{ readonly line: number; readonly text: string }>,
): MarkedInstruction[] {
  const out: MarkedInstruction[] = [];
  for (const { line, text } of lines) {
    if (!text.includes(INJECTION_ALLOW_MARKER)) continue;
    const f = injectionOfLine(text, 'ignored');
    if (f) out.push({ path, line, reason: f.reason });
  }
  return out;
}

function refuseMarked(what: string, found: readonly MarkedInstruction[]): void {
  if (found.length === 0) return;
  const where = found.map((f) => `${f.path} line ${f.line} (${f.reason})`);
  throw new MemoryError(
    'injection.marked',
    `${what}: refusing a line marked ${INJECTION_ALLOW_MARKER} that reads as an instruction to the assistant: ${where.slice(0, 5).join(', ')}${where.length > 5 ? `, and ${where.length - 5} more` : ''}; nothing was written`,
    {
      data: { findings: found },
      hint: `write it without the mark (agents are then shown it quoted, never obeyed); the mark is a person's word on a line of a file they edit: a documented example belongs in a file a person edits by hand, marked there`,
    },
  );
}

/** A line's text without its indent and list marker: how a copied line is recognised after a re-render. */
const bare = (line: string): string => line.trim().replace(/^(?:[-*+]|\d+[.)])\s+/, '');

/**
 * `previous` plus the lines of `next` that copy a marked line of `carried` (the same text once indent
 * and list marker are set aside): what the guard treats as already in the file.
 */
function knownLines(next: string, previous: string, carried: string | undefined): string {
  if (!carried) return previous;
  const marked = new Set(
    carried
      .split(/\r?\n/)
      .filter((l) => l.includes(ALLOW_MARKER) || l.includes(INJECTION_ALLOW_MARKER))
      .map(bare),
  );
  if (marked.size === 0) return previous;
  const copied = next.split(/\r?\n/).filter((l) => marked.has(bare(l)));
  return copied.length ? `${previous}\n${copied.join('\n')}` : previous;
}

/**
 * The guard of one file write: refuse it when its name or a line new to the file (not in `previous`)
 * holds a suspected credential, or a new line carries `gitmem:allow-instruction` and reads as an
 * instruction without it. Lines already in `previous` (a person's marked lines) pass, and so do the
 * copies of the marked lines of `carried`: memory text the write moves from another file as it
 * stands (the state archive), never text handed to the write.
 * @throws MemoryError `secret.found` (core/secrets.ts refuseSecretsInWrite), `injection.marked`.
 */
export function refuseInWrite(path: string, next: string, previous = '', carried?: string): void {
  const known = knownLines(next, previous, carried);
  refuseSecretsInWrite(path, next, known);
  refuseMarked(`refusing to write ${path}`, markedInstructions(path, newLines(known, next)));
}

/**
 * The guard of a write's inputs, before anything is derived from them (file names, ids, trailers)
 * or any of its files is written: as {@link refuseInWrite}, by field name. `what` names the
 * operation in the message (`remember`, `observe`).
 * @throws MemoryError `secret.found`, `injection.marked`.
 */
export function refuseInInput(
  what: string,
  fields: Readonly<Record<string, string | readonly string[] | undefined>>,
): void {
  refuseSecretsInInput(what, fields);
  const found: MarkedInstruction[] = [];
  for (const [name, value] of Object.entries(fields)) {
    const values = value === undefined ? [] : typeof value === 'string' ? [value] : value;
    for (const v of values)
      found.push(
        ...markedInstructions(
          name,
          v.split(/\r?\n/).map((text, i) => ({ line: i + 1, text })),
        ),
      );
  }
  refuseMarked(what, found);
}
