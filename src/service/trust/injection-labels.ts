// The trust stage's labeller for injected instructions: the lines of a block item that the detector
// (core/injection.ts) flags as addressing the assistant get an `injection` label naming those lines,
// so the injection policy (inject-policy.ts, `recall.inject.injection`, default false) withholds
// exactly those lines from a block injected without the agent asking, and says so in one line. Blocks
// an agent asked for keep the lines, marked `[suspected instruction, quoted]` by the packer.
// deps: core (injection), service/trust (stage types).
import { injectionOfFileName } from '../../core/agent-text.js';
import { flaggedLines } from '../../core/injection.js';
import type { Labeller } from './stage.js';

/**
 * Label each item's flagged lines (items without candidate lines, the returned results, carry
 * `injection` already), and the whole item when its file name reads as an instruction.
 */
export const injectionLabeller: Labeller = (_ctx, items) => {
  for (const it of items) {
    // Each line on its own, and both lines of an order split across two (R152).
    const flagged = flaggedLines(it.lines);
    const lines = it.lines.filter((l) => flagged.has(l.line)).map((l) => l.line);
    if (lines.length > 0) it.labels.push({ class: 'injection', text: 'suspected instruction', lines });
    // A file named as an order labels the whole item: its name heads every line shown (R104).
    if (injectionOfFileName(it.path))
      it.labels.push({ class: 'injection', text: 'suspected instruction in the file name' });
  }
};
