// Entry ids, one owner: a new entry's id is chosen once, when it is created, and written into its
// front-matter `id:`. One format for a typed entry, `<YYYY-MM-DD>-<slug>` (the UTC day it was
// created, then a slug of its title: remember, complete-task, the editor's "move into a new entry"
// and "supersede" actions), and `<slug>` for a playbook entry (the curator's). On a taken id the next
// of `-2`, `-3`, … is used. The id never changes when the body is edited; renaming it is an explicit
// rename (service/files/rename.ts). An entry without `id:` has its file name as id
// (parse/parse-document.ts), so an older entry named `<slug>-<day>` keeps its id as it is.
// A name that reads as an instruction (as written, or its slug with hyphens read as spaces) gives the
// neutral slug `suspected-instruction` instead (docs/bad-inputs.md R151): an id heads every list and
// block an agent is shown, and becomes the file name.
// deps: core/words (slug), core/injection (injectionOfLine).
import { injectionOfLine } from './injection.js';
import { slug } from './words.js';

/** Words of a playbook id: its slug is cut to the first eight. */
const PLAYBOOK_ID_WORDS = 8;

/** `YYYY-MM-DD` of `now` in UTC. */
export function utcDay(now: Date): string {
  return now.toISOString().slice(0, 10);
}

/** The slug of an id derived from a name that reads as an instruction (R151). */
export const SUSPECT_ID_SLUG = 'suspected-instruction';

/**
 * The slug of `name` for an id, `cut` to its first words (all when undefined); {@link SUSPECT_ID_SLUG}
 * when `name`, or the slug with its hyphens read as spaces, reads as an instruction. Allow markers are
 * not honoured: a write's own text cannot exempt itself.
 */
function idSlug(name: string, cut?: number): string {
  const words = slug(name).split('-').slice(0, cut).join('-');
  const orders = injectionOfLine(name, 'ignored') ?? injectionOfLine(words.replace(/-/g, ' '), 'ignored');
  return orders ? SUSPECT_ID_SLUG : words;
}

/** The id base of a new typed entry: `<UTC day of now>-<slug of name>` (a neutral slug when name orders, R151). */
export function entryIdBase(now: Date, name: string): string {
  return `${utcDay(now)}-${idSlug(name)}`;
}

/** The id base of a new playbook entry: the slug of its title, at most eight words (a neutral slug when it orders, R151). */
export function playbookIdBase(title: string): string {
  return idSlug(title, PLAYBOOK_ID_WORDS);
}

/** Candidate ids for `base`, in order: `base`, `base-2`, `base-3`, … (endless; callers stop). */
export function* idCandidates(base: string): Generator<string> {
  yield base;
  for (let n = 2; ; n++) yield `${base}-${n}`;
}

/** @returns the first of {@link idCandidates} for which `taken` is false. */
export function firstFreeId(base: string, taken: (id: string) => boolean): string {
  for (const id of idCandidates(base)) if (!taken(id)) return id;
  /* c8 ignore next */
  throw new Error('unreachable');
}
