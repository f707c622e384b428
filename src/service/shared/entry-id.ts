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
