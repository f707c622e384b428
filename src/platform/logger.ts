// Logger sinks: stderr for the CLI (never stdout: it belongs to --json and the LSP), and null.
// Imports core only.
import type { Logger } from '../core/ports.js';
import { shownControls } from '../core/text.js';

/** A logger writing `gitmem: <level>: message` lines to stderr; debug only when `verbose`. */
export function createStderrLogger(verbose = false): Logger {
  // A message names files and ids from memory: control characters are shown as symbols (B48).
  const w = (level: string, m: string) => process.stderr.write(`gitmem: ${level}: ${shownControls(m)}\n`);
  return {
    debug: (m) => {
      if (verbose) w('debug', m);
    },
    info: (m) => {
      if (verbose) w('info', m);
    },
    warn: (m) => w('warning', m),
    error: (m) => w('error', m),
  };
}
