// Where a file that ships beside the running bundle is (a worker script, the CLI entry): dist/ holds
// the entries (cli.cjs, index.js, the workers) and dist/chunks/ the code they share, so a module looks
// in its own folder and one folder up; a CommonJS bundle (the VS Code extension's) looks beside
// __dirname. Used for the embedding worker and the merge-driver command. Imports node:* only.
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

/**
 * The absolute path of `name` (e.g. `lexical-worker.js`) beside the running
 * bundle, or undefined when no such file exists (running from sources, or a bundle without it).
 */
export function bundleFile(name: string): string | undefined {
  const candidates: string[] = [];
  try {
    candidates.push(fileURLToPath(new URL(`./${name}`, import.meta.url)));
    // Shared code of a split bundle runs from dist/chunks/; the entries sit one folder up.
    candidates.push(fileURLToPath(new URL(`../${name}`, import.meta.url)));
  } catch {
    /* a CommonJS bundle has no import.meta.url */
  }
  if (typeof __dirname === 'string') candidates.push(join(__dirname, name));
  return candidates.find((p) => existsSync(p));
}
