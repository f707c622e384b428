// Option parsing shared by the CLI commands: comma lists, `--limit`, and the indexing progress bar.
// deps: core, cli-progress (cli layer).
import cliProgress from 'cli-progress';
import { MemoryError } from '../core/errors.js';

export const collect = (v: string, prev: string[] = []) => [
  ...prev,
  ...v
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean),
];

export function parseLimit(v: string): number {
  const n = Number(v);
  if (!Number.isInteger(n) || n < 1) throw new MemoryError('usage', `--limit must be a positive integer, got "${v}"`);
  return Math.min(n, 50);
}

export function progressBar(enabled: boolean) {
  if (!enabled) return undefined;
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
