// Option parsing shared by the CLI commands: comma lists, `--limit`, and the indexing progress bar.
// deps: core, cli-progress (cli layer).
import { MemoryError, shownValue } from '../core/errors.js';
import { checkExpectedHash } from '../service/shared/inputs.js';

export const collect = (v: string, prev: string[] = []) => [
  ...prev,
  ...v
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean),
];

/** `--expect-hash`'s value, checked as the command line is read (H09): a content hash, or "none". */
export function parseExpectHash(v: string): string {
  if (v !== 'none') checkExpectedHash('--expect-hash', v);
  return v;
}

/** The write option for a parsed `--expect-hash` ("none": the file must not exist yet, null). */
export function expectedHashOf(v: string | undefined): { expectedHash?: string | null } {
  return v === undefined ? {} : { expectedHash: v === 'none' ? null : v };
}

/** Most results one recall returns (the service clamps to the same number). */
const MAX_LIMIT = 50;
let limitNoted = false;

export function parseLimit(v: string): number {
  const n = Number(v);
  if (!Number.isInteger(n) || n < 1)
    throw new MemoryError('usage', `--limit must be a positive integer, got ${shownValue(v)}`);
  // Said on stderr, so a --json answer on stdout stays one JSON value; once per process (cli/bin.ts
  // parses a recall before the full CLI parses it again).
  if (n > MAX_LIMIT && !limitNoted) {
    limitNoted = true;
    process.stderr.write(`gitmem: note: --limit ${n} is over the maximum; showing at most ${MAX_LIMIT}\n`);
  }
  return Math.min(n, MAX_LIMIT);
}

/** The progress bar of `gitmem index` (cli-progress is loaded here, only by the commands that draw one). */
export async function progressBar(enabled: boolean) {
  if (!enabled) return undefined;
  const { default: cliProgress } = await import('cli-progress');
  return new cliProgress.SingleBar(
    {
      format: 'indexing {phase} [{bar}] {value}/{total} {unit} | ETA {eta_formatted}',
      stream: process.stderr,
      hideCursor: true,
      clearOnComplete: true,
    },
    cliProgress.Presets.shades_classic,
  );
}
/** `--budget <bytes>` of recall, context and the prompt hook: a whole number of UTF-8 bytes, at least 64. */
export function parseBudget(v: string): number {
  const n = Number(v);
  if (!Number.isInteger(n) || n < 64)
    throw new MemoryError('usage', `--budget must be a whole number of bytes ≥ 64, got ${shownValue(v)}`);
  return n;
}
