// Entry ids, one owner: a new entry's id is chosen once, when it is created (`<day>-<slug of the
// title>` for remember, complete-task and the editor's actions), and written into its front-matter
// `id:`. It never changes when the body is edited; renaming it is an explicit rename
// (service/files/rename.ts). An entry without `id:` has its file name as id (parse-document.ts).
// deps: none.

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

/**
 * Create a new file under the first free id of {@link idCandidates}: `taken` skips ids known to be
 * in use, and `create` (an exclusive create) returns false when a file already sits at that id's
 * path (one the parsed workspace does not hold: ignored, too large, or named unlike its `id:`), so
 * the next candidate is tried and nothing is ever overwritten. @returns the id written.
 */
export async function createUnderFreeId(
  base: string,
  taken: (id: string) => boolean,
  create: (id: string) => Promise<boolean>,
): Promise<string> {
  for (const id of idCandidates(base)) if (!taken(id) && (await create(id))) return id;
  /* c8 ignore next */
  throw new Error('unreachable');
}
