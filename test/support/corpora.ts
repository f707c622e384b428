// The real-world memory corpora vendored under fixtures/corpora/ (MIT, sources and licences in
// fixtures/corpora/SOURCES.md). Tests read them from the repository only, always via a temp copy.
import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { REPO } from './fixtures.js';

/** Absolute path of `fixtures/corpora` in this repository. */
export const CORPORA = join(REPO, 'fixtures', 'corpora');

/** The corpus folder names (one workspace each), sorted. */
export function corpusNames(): string[] {
  return readdirSync(CORPORA, { withFileTypes: true })
    .filter((d) => d.isDirectory())
    .map((d) => d.name)
    .sort();
}
