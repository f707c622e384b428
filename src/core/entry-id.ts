// Entry ids, one owner: a new entry's id is chosen once, when it is created, and written into its
// front-matter `id:`. One format for a typed entry, `<YYYY-MM-DD>-<slug>` (the UTC day it was
// created, then a slug of its title: remember, complete-task, the editor's "move into a new entry"
// and "supersede" actions), and `<slug>` for a playbook entry (the curator's). On a taken id the next
// of `-2`, `-3`, … is used. The id never changes when the body is edited; renaming it is an explicit
// rename (service/files/rename.ts). An entry without `id:` has its file name as id
// (parse/parse-document.ts), so an older entry named `<slug>-<day>` keeps its id as it is.
// deps: core/words (slug).
import { slug } from './words.js';

/** Words of a playbook id: its slug is cut to the first eight. */
const PLAYBOOK_ID_WORDS = 8;

/** `YYYY-MM-DD` of `now` in UTC. */
export function utcDay(now: Date): string {
  return now.toISOString().slice(0, 10);
}

/** The id base of a new typed entry: `<UTC day of now>-<slug of name>`. */
export function entryIdBase(now: Date, name: string): string {
  return `${utcDay(now)}-${slug(name)}`;
}

/** The id base of a new playbook entry: the slug of its title, at most eight words. */
export function playbookIdBase(title: string): string {
  return slug(title).split('-').slice(0, PLAYBOOK_ID_WORDS).join('-');
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
