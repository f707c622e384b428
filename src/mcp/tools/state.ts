// `memory_state`: the working state, CURRENT_STATE.md (snapshot, set, new, handoff). Its definition (JSON
// Schema of the arguments, annotations) and its handler. deps: mcp (tools/schema), service, core.
import {
  stateHandoff,
  stateNew,
  stateRead,
  stateSet,
  stateSnapshot,
  type StateUpdate,
} from '../../service/state/state.js';
import { MAX_STATE_FIELD_CHARS } from '../../core/write-limits.js';
import { MemoryError } from '../../core/errors.js';
import { asStrings, object, str, strings, writes } from './schema.js';
import type { McpTool } from './types.js';
import type { JsonSchema } from '../../validate/arguments.js';

// The caps of written texts are core's (core/write-limits.ts), the same the use cases check (U62).
const field = { maxLength: MAX_STATE_FIELD_CHARS };
const item: JsonSchema = { type: 'string', minLength: 1, maxLength: MAX_STATE_FIELD_CHARS };
const STATE_FIELDS = {
  objective: str('What the work is for. A placeholder ("None", "idle") ends the active work.', field),
  step: str('The current step.', field),
  next: str('The next action.', field),
  decisions: strings('Key decisions to add (kept unless already present).', item),
  blockers: strings('Blockers to add.', item),
  results: strings('Results the user has not seen yet, to add.', item),
};

export const memoryState: McpTool = {
  definition: {
    name: 'memory_state',
    description:
      'Working state (CURRENT_STATE.md). action "snapshot": compact continuity block (call at session start; empty text when idle). "set": update fields and bump Last updated (call before context compaction and when the plan changes; ifChanged=true writes only on a real change). "new": archive the state into today\'s daily note (unsurfaced results included) and reset to the template. "handoff": a seed (objective, step, decisions) for a sub-agent. Returns a content hash; pass it as expectedHash to get a conflict instead of overwriting someone else\'s update.',
    inputSchema: object(
      {
        action: { type: 'string', enum: ['snapshot', 'set', 'new', 'handoff'], description: 'What to do.' },
        ...STATE_FIELDS,
        clear: strings('Lists to empty before adding (set only).', {
          type: 'string',
          enum: ['decisions', 'blockers', 'results'],
        }),
        ifChanged: { type: 'boolean', description: 'set: write only when a field changes (post-turn).' },
        expectedHash: {
          type: ['string', 'null'],
          pattern: '^[0-9a-f]{64}$',
          description: 'set/new: fail with a conflict unless the file still has this hash (null: must not exist).',
        },
        commit: { type: 'boolean', description: 'set/new: checkpoint-commit afterwards.' },
        maxTokens: {
          type: 'integer',
          minimum: 40,
          maximum: 4000,
          description: 'snapshot/handoff: hard cap in estimated tokens.',
        },
      },
      ['action'],
    ),
    annotations: writes('Working state', true, false),
  },
  async handle({ memory, git }, a) {
    const s = memory.context;
    const action = a.action as string;
    const write = {
      ...(a.expectedHash !== undefined ? { expectedHash: a.expectedHash as string | null } : {}),
      ...(a.commit ? { commit: true } : {}),
    };
    const fieldKeys = ['objective', 'step', 'next', 'decisions', 'blockers', 'results', 'clear'] as const;
    if (action !== 'set') {
      const stray = fieldKeys.filter((k) => a[k] !== undefined);
      if (stray.length) throw new MemoryError('usage', `memory_state: ${stray.join(', ')} only apply to action "set"`);
    }
    switch (action) {
      case 'snapshot': {
        const snap = await stateSnapshot(s, { git, ...(a.maxTokens ? { maxTokens: a.maxTokens as number } : {}) });
        const { path, hash } = await stateRead(s, { git });
        return { ...snap, path, hash };
      }
      case 'set': {
        const update: StateUpdate = {
          ...(a.objective !== undefined ? { objective: a.objective as string } : {}),
          ...(a.step !== undefined ? { step: a.step as string } : {}),
          ...(a.next !== undefined ? { next: a.next as string } : {}),
          ...(a.decisions ? { decisions: asStrings(a.decisions)! } : {}),
          ...(a.blockers ? { blockers: asStrings(a.blockers)! } : {}),
          ...(a.results ? { results: asStrings(a.results)! } : {}),
          ...(a.clear ? { clear: asStrings(a.clear) as ('decisions' | 'blockers' | 'results')[] } : {}),
        };
        return { ...(await stateSet(s, { git, update, ...write, ...(a.ifChanged ? { ifChanged: true } : {}) })) };
      }
      case 'new':
        return { ...(await stateNew(s, { git, ...write })) };
      case 'handoff':
        return { ...(await stateHandoff(s, { git, ...(a.maxTokens ? { maxTokens: a.maxTokens as number } : {}) })) };
      default:
        throw new MemoryError('usage', `memory_state: unknown action "${action}"`);
    }
  },
};
