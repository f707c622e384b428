// The checks of a working-state update (`state set`, MCP memory_state set, the lifecycle hooks), the
// same every other write path runs: the input guard of core/write-guard.ts (a suspected credential,
// or a line marked `gitmem:allow-instruction` that reads as an instruction, is refused by field name
// before anything is read or written), and the warning that a line reads as an instruction to an
// agent (written, since the file is the user's, but withheld from every snapshot and handoff; R61).
// deps: core, continuity (types).
import { injectionOfLine } from '../../core/injection.js';
import { refuseInInput } from '../../core/write-guard.js';
import type { StateUpdate } from '../../continuity/render-state.js';

/** The update's texts by field name, as the guard names them in its refusal. */
function fieldsOf(update: StateUpdate): Record<string, string | readonly string[] | undefined> {
  return {
    objective: update.objective,
    step: update.step,
    next: update.next,
    decision: update.decisions,
    blocker: update.blockers,
    result: update.results,
  };
}

/**
 * Refuse `update` as remember refuses its text.
 * @throws MemoryError `secret.found`, `injection.marked`.
 */
export function refuseStateInput(update: StateUpdate): void {
  refuseInInput('state set', fieldsOf(update));
}

/** The one-line warnings of `update`: how many of its lines read as instructions to an agent (none: []). */
export function stateWarnings(update: StateUpdate): string[] {
  const n = Object.values(fieldsOf(update))
    .flatMap((v) => (v === undefined ? [] : typeof v === 'string' ? [v] : v))
    .flatMap((t) => t.split(/\r\n|\r|\n/))
    .filter((l) => injectionOfLine(l) !== undefined).length;
  if (n === 0) return [];
  const one = n === 1;
  return [
    `${n} line${one ? '' : 's'} of the state look${one ? 's' : ''} like instructions to an agent; \`state snapshot\` and \`handoff\` withhold ${one ? 'it' : 'them'} (gitmem validate)`,
  ];
}
