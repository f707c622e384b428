// ACE executor, the memory type of a task: weighted rules (regular expressions) over its goal, result
// and feedback; ties go to the more specific type. Pure and deterministic.
import { ENTRY_TYPES, type EntryType } from '../core/document.js';
import type { Classification, LinkedFile, TaskInput } from './types.js';

// ---------------------------------------------------------------------------------------------
// Classification

interface Rule {
  readonly name: string;
  readonly type: EntryType;
  readonly re: RegExp;
  readonly weight: number;
  /** Only these fields (default: all). */
  readonly fields?: readonly ('goal' | 'result' | 'feedback')[];
}

const R = (name: string, type: EntryType, re: RegExp, weight: number, fields?: Rule['fields']): Rule => ({
  name,
  type,
  re,
  weight,
  ...(fields ? { fields } : {}),
});

/** The rules, each a regular expression over one or more task fields. Order does not matter. */
const RULES: readonly Rule[] = [
  // error_fix: something was broken and now works.
  R(
    'fix-goal',
    'error_fix',
    /^\s*(fix|resolve|debug|repair|patch|hotfix|unbreak|stop (the )?\w+ (from )?(crash|fail|throw))/i,
    3,
    ['goal'],
  ),
  R(
    'error-words',
    'error_fix',
    /\b(bug|crash(es|ed|ing)?|exception|traceback|stack ?trace|segfault|panic(ked|s)?|regression|flaky|broken|TypeError|ReferenceError|ENOENT|EADDRINUSE|ECONNREFUSED|OOM|out of memory|deadlock|race condition|(4|5)\d\d (error|response)s?|gets? an? (4|5)\d\d|error)\b/i,
    1,
  ),
  R('failing', 'error_fix', /\b(fail(s|ed|ing|ure|ures)?|threw|throws|throwing|timed? ?out|hangs?|hung)\b/i, 0.75, [
    'goal',
    'result',
  ]),
  R(
    'fixed-result',
    'error_fix',
    /\b(fixed(?! (back-?off|delay|size|rate|interval|number|width|point|window|cost))|resolved|now pass(es)?|passes now|no longer (fail|crash|throw|hang|time)s?|works? again|green again|the fix (was|is)|root cause)\b/i,
    2,
    ['result', 'feedback'],
  ),

  // discovery: something about the world was found out.
  R(
    'investigate-goal',
    'discovery',
    /^\s*(investigate|find out|figure out|explore|look into|check (why|whether|if|what)|why (does|do|is|are)|determine|research|spike|probe|measure|profile|benchmark)\b/i,
    3,
    ['goal'],
  ),
  R(
    'found-that',
    'discovery',
    /\b(found (out )?that|turns? out|turned out|discovered|noticed that|it appears|appears to|apparently|undocumented|silently|actually (returns?|sends?|uses?|is)|we (learned|found) the (api|service|server|library))\b/i,
    2,
    ['result', 'feedback'],
  ),
  R(
    'measure',
    'discovery',
    /\b(measured|profil(ed|ing)|benchmark(ed)?|p9[59]|latency of|takes? \d+ ?(ms|s)\b|\d+ ?(ms|%) (of|faster|slower))/i,
    1,
    ['result'],
  ),

  // decision: a choice between options was made.
  R('choose-goal', 'decision', /^\s*(choose|decide|pick|select|evaluate|compare|weigh|settle)\b/i, 3, ['goal']),
  R(
    'decided',
    'decision',
    /\b(decid(ed|e|ing)|decision|chose|chosen|opted (for|to)|go(ing)? with|went with|settled on|switch(ed|ing)? (to|from)|migrat(e|ed|ing) (to|from)|adopt(ed|ing)?|replac(e|ed|ing) \S+ with|in favou?r of|rather than|instead of|over \w+ because|trade-?offs?|vs\.?|versus)\b/i,
    1.5,
  ),
  R(
    'we-will',
    'decision',
    /\b(we('ll| will) (use|go|keep|stay|standardi[sz]e)|the team agreed|agreed to|approved)\b/i,
    1.5,
    ['result', 'feedback'],
  ),

  // learning: a technique or lesson for next time.
  R(
    'learned',
    'learning',
    /\b(learn(ed|t|ing)?|lesson|takeaway|TIL|realis(e|ed)|realiz(e|ed)|now (I |we )?understand|understood|next time|in (the )?future|going forward|the trick (is|was)|it helps to|works better|better to|worth (doing|it)|key insight|remember to)\b/i,
    1.5,
  ),
  R('learn-goal', 'learning', /^\s*(learn|understand why|get familiar|read up|try|experiment|prototype)\b/i, 2, [
    'goal',
  ]),

  // warning: a trap, risk or thing never to do.
  R(
    'never',
    'warning',
    /\b(never|don'?t ever|do not|don'?t|avoid|beware|careful|caution|danger(ous)?|must not|mustn'?t|will (break|corrupt|delete|wipe|lose)|data loss|irreversibl[ey]|unsafe|footgun|gotcha|watch out|not safe|destructive|wipes?|corrupts?)\b/i,
    1.5,
    ['goal', 'feedback'],
  ),
  // In a result, "never" and "don't" are usually narrative ("the job never became due"): count them
  // only as imperatives at the start of a sentence; the other warning words count anywhere.
  R('never-imperative', 'warning', /(^|[.;:!]\s+)(never|don'?t|do not|avoid)\b/i, 1.5, ['result']),
  R(
    'danger',
    'warning',
    /\b(beware|careful|caution|danger(ous)?|must not|mustn'?t|will (break|corrupt|delete|wipe|lose)|data loss|irreversibl[ey]|unsafe|footgun|gotcha|watch out|not safe|destructive|wipes?|corrupts?)\b/i,
    1.5,
    ['result'],
  ),
  R('warn-feedback', 'warning', /\b(never|don'?t|do not|avoid|be careful|dangerous|must not)\b/i, 1.5, ['feedback']),
  R(
    'risk',
    'warning',
    /\b(risk(y|s)?|could have (deleted|lost|broken)|almost (deleted|lost|broke)|near[- ]miss|production (data|database) was|without (a )?backup)\b/i,
    1.5,
  ),

  // codebase_knowledge: how this code base is put together.
  R(
    'explain-goal',
    'codebase_knowledge',
    /^\s*(explain|document|map|trace|describe|understand how|find where|locate|where (is|are|does|do)|how (does|do|is|are)|walk ?through|onboard|summari[sz]e (the|how))\b/i,
    3,
    ['goal'],
  ),
  R(
    'lives-in',
    'codebase_knowledge',
    /\b(lives? in|is defined in|are defined in|located in|entry ?point|is wired|registered in|is handled (by|in)|handles|responsible for|calls into|is called from|flows? (through|from|into)|call (graph|chain)|architecture|layers?|module(s)?|the code ?base|data flow|request flow|dispatch(es|ed)?)\b/i,
    1,
  ),
  R(
    'how-works',
    'codebase_knowledge',
    /\b(how (the )?\S+( \S+)? works|works like this|is structured|structure of|overview of|mapped (out )?the)\b/i,
    1.5,
  ),

  // preference: how a person wants things done.
  R(
    'prefer',
    'preference',
    /\b(prefer(s|red|ence)?|would rather|likes? (it|them|to|when)|wants? (it|them|us|me|to)|(code|naming|commit|writing)? ?style|convention|please (use|keep|always|don'?t|avoid|write)|(user|reviewer|maintainer|team|lead|dana|they) (asked|requested|wants|likes|prefers)|asked (me|us) to|taste|tabs|spaces|emoji|terse|concise|verbose|tone)\b/i,
    1.5,
  ),
  R(
    'prefer-feedback',
    'preference',
    /\b(I (prefer|like|want|don'?t like|hate|love)|please|from now on|always (use|write|put|name|keep))\b/i,
    2,
    ['feedback'],
  ),
];

/** Tie-break when scores are equal: the more specific types first. */
const TIE_ORDER: readonly EntryType[] = [
  'preference',
  'warning',
  'error_fix',
  'decision',
  'discovery',
  'codebase_knowledge',
  'learning',
];

const FIELD_WEIGHT = { goal: 1, result: 1, feedback: 1.5 } as const;

/**
 * Classify a completed task into one of the seven entry types with weighted rules over its goal,
 * result and feedback (feedback weighs 1.5×). Deterministic; falls back to `learning` when no
 * rule fires (or `codebase_knowledge` when the task only read code).
 */
export function classifyTask(
  input: Pick<TaskInput, 'goal' | 'result' | 'feedback'>,
  files: readonly LinkedFile[] = [],
): Classification {
  const scores = Object.fromEntries(ENTRY_TYPES.map((t) => [t, 0])) as Record<EntryType, number>;
  const fired: string[] = [];
  const fields = { goal: input.goal ?? '', result: input.result ?? '', feedback: input.feedback ?? '' };
  for (const rule of RULES) {
    for (const f of rule.fields ?? (['goal', 'result', 'feedback'] as const)) {
      const text = fields[f];
      if (!text) continue;
      const hits = text.match(
        new RegExp(rule.re.source, rule.re.flags.includes('g') ? rule.re.flags : `${rule.re.flags}g`),
      );
      if (!hits) continue;
      // Repeats count, with diminishing returns.
      const n = Math.min(hits.length, 3);
      scores[rule.type] += rule.weight * FIELD_WEIGHT[f] * (1 + (n - 1) * 0.25);
      fired.push(`${rule.name}@${f}`);
    }
  }
  // A task that changed nothing but read code is most likely about the code base.
  if (files.length && files.every((f) => f.relation === 'read' || f.relation === 'referenced')) {
    scores.codebase_knowledge += 0.75;
    fired.push('read-only-files');
  }
  let best: EntryType = 'learning';
  let top = 0;
  for (const t of TIE_ORDER) {
    if (scores[t] > top) {
      top = scores[t];
      best = t;
    }
  }
  if (top === 0) best = files.length && files.every((f) => f.relation === 'read') ? 'codebase_knowledge' : 'learning';
  const rounded = Object.fromEntries(ENTRY_TYPES.map((t) => [t, Number(scores[t].toFixed(3))])) as Record<
    EntryType,
    number
  >;
  return { type: best, scores: rounded, rules: fired };
}
