// Suspected prompt injection in memory text: lines that address the assistant with instructions
// ("ignore previous instructions", "you must now …", "run this command …"), tool-call and JSON-RPC
// shapes, chat role tags (`system:`, `<|im_start|>`), and hidden characters (the Unicode tag block,
// bidi overrides, runs of zero-width characters). Memory is data: a flagged line is never obeyed,
// and every agent-facing output marks it ({@link markInjection}). Pure; one owner for validate's
// `memory.injection.suspect` diagnostic, recall, `get` and the inject policy.
//
// Patterns follow public descriptions of the attack classes: OWASP LLM01 (prompt injection),
// OWASP's agentic top-10 (memory poisoning), Unicode tag smuggling, role-tag injection and
// tool-call JSON. fixtures/injection/ holds the labelled lines `npm run bench` measures.
import type { AllowMarkers } from './secret-patterns.js';
import { skeletonOf } from './text-skeleton.js';
import { encodedReadings, lettersOnly, type EncodedReading } from './encoded-text.js';

/** What kind of injection a line looks like. */
export type InjectionKind = 'instruction' | 'role-tag' | 'tool-call' | 'hidden-characters';

/** One flagged line. `line` is 1-based, `column` 1-based in UTF-16 code units (where the match starts). */
export interface InjectionFinding {
  readonly line: number;
  readonly column: number;
  readonly kind: InjectionKind;
  /** Short words for people: what matched, e.g. `asks to ignore earlier instructions`. */
  readonly reason: string;
}

/**
 * A line carrying this marker is never reported (a documented example of an injection) — in a file a
 * person edited by hand. Text a gitmem write brings in is checked as if it were absent
 * (core/write-guard.ts), so an agent cannot exempt its own text.
 */
export const INJECTION_ALLOW_MARKER = 'gitmem:allow-instruction';

/** The label a flagged line carries in agent-facing output. */
export const INJECTION_LABEL = '[suspected instruction, quoted]';

interface Pattern {
  readonly kind: InjectionKind;
  readonly reason: string;
  readonly re: RegExp;
}

/** Hidden characters: Unicode tag block, bidi embeddings/overrides/isolates, runs of 2+ zero-width characters. */
const TAG_CHARS = /[\u{E0000}-\u{E007F}]+/u;
const BIDI = /[\u202A-\u202E\u2066-\u2069]/u;
const ZERO_WIDTH_RUN = /(?:\u200B|\u200C|\u200D|\u2060|\uFEFF){2,}/u;
/** Every hidden character {@link markInjection} shows escaped (single zero-width joiners inside emoji stay). */
const HIDDEN =
  /[\u{E0000}-\u{E007F}\u202A-\u202E\u2066-\u2069]+|(?:\u200B|\u200C|\u200D|\u2060|\uFEFF){2,}|[\u200B\u2060\uFEFF]/gu;

// Words that name the instructions an assistant was given.
const PRIOR =
  "(?:all\\s+|any\\s+|the\\s+|your\\s+|of\\s+(?:the|your)\\s+)?(?:(?:developer|user|owner|operator|system|project)'?s\\s+)?(?:(?:previous|prior|above|earlier|preceding|former|original|initial|system|existing|safety|developer|current|old)\\s+)*";
const ORDERS =
  '(?:instructions?|prompts?|rules|directives?|guidelines|guidance|context|messages|constraints|policies|programming|orders|commands|restrictions|guardrails|system\\s+prompt)';
const AI =
  '(?:AI|assistant|agent|LLM|language\\s+model|model|chatbot|bot|Claude|Copilot|ChatGPT|GPT(?:-\\d)?|Gemini|Codex|Cursor)';

// An AI reader named as one: `AI agents`, `the coding assistant`, `LLMs`, `Claude Code`, `Cursor agents`.
const AI_READER =
  '(?:(?:coding|code|autonomous|automated|software|AI|LLM)\\s+)*' +
  AI +
  '(?:\\s+(?:Code|CLI|agents?|assistants?|models?|bots?|systems?|tools?))?s?';
// What a reader of this memory does with it: `reading this`, `that processes this file` (not `working on this
// repo`, which a project's conventions for agents say too).
const READS_THIS =
  "(?:(?:that|which|who)\\s+(?:is\\s+|are\\s+)?)?(?:reads?|reading|process(?:es|ing)?|sees?|seeing|loads?|loading|pars(?:es|ing)|ingest(?:s|ing)?|recall(?:s|ing)?|finds?|finding|encounter(?:s|ing)?|index(?:es|ing)|scan(?:s|ning)?)\\s+(?:(?:this|these)(?:\\s+(?:files?|notes?|memory|memories|lines?|entry|entries|text|documents?|pages?|repo|repository|project|codebase|workspace))?|the\\s+(?:following|above)|(?:the|our|my)\\s+(?:files?|notes?|memory|memories|repo|repository|project|codebase|documents?|workspace))(?=\\s*(?:[,;:.!?)]|$)|\\s+(?:must|should|shall|will|are|is|needs?|ha(?:ve|s)|always|never|do|don'?t|please|now|first|carefully)\\b)";
// An obligation or order that is not a passive statement about the tool (`must be restarted`).
const OBLIGED =
  "\\b(?:must|should|shall|(?:need|needs|have|has)\\s+to|(?:is|are)\\s+(?:required|expected|instructed|ordered|supposed|asked)\\s+to|(?:is|are)\\s+to|always|never|do\\s+not|don'?t)\\b(?!\\s+(?:not\\s+)?(?:be|been|have\\s+been)\\s+[a-z]+(?:ed|en|wn|t)\\b)";
// A verb in the imperative, after a vocative (`Copilot, always commit …`).
const IMPERATIVE =
  "(?:please\\s+)?(?:always|never|do\\s+not|don'?t|make\\s+sure|ensure|run|execute|push|approve|merge|skip|disable|delete|remove|ignore|send|upload|commit|install|grant|bypass|force|deploy|publish|drop|reset|stop|turn\\s+off|print|output|reply|respond|reveal|fetch|download|email|post|overwrite|replace|accept|trust|allow|enable)\\b";

/** Patterns that flag a line on their own. */
const STRONG: readonly Pattern[] = [
  {
    kind: 'instruction',
    reason: 'asks to ignore earlier instructions',
    re: new RegExp(
      "\\b(?:ignore|disregard|forget|override|overrule|bypass|skip|drop|abandon|discard|neglect|set\\s+aside|throw\\s+out|do\\s+not\\s+follow|don'?t\\s+follow|stop\\s+following)\\s+" +
        PRIOR +
        ORDERS,
      'i',
    ),
  },
  {
    kind: 'instruction',
    reason: 'asks to ignore earlier instructions',
    re: /\b(?:ignore|disregard|forget)\s+(?:all\s+|everything\s+)?(?:of\s+)?(?:the\s+|what\s+(?:was|is)\s+|what\s+)?(?:above|before|said\s+before|you\s+(?:were|have\s+been)\s+told)\b/i,
  },
  {
    kind: 'instruction',
    reason: 'asks to ignore earlier instructions',
    re: /\b(?:ignore|disregard|forget)\s+(?:all|everything)\s+(?:previous|prior|earlier|else)\b/i,
  },
  {
    kind: 'instruction',
    reason: 'announces new instructions',
    re: /\b(?:new|updated|revised|real|true|actual|secret|hidden|override|priority)\s+(?:system\s+)?(?:instructions?|directives?|orders|task|objective|rules)\s*(?::|-|—|follow|are|is)/i,
  },
  {
    kind: 'instruction',
    reason: 'claims to be a system or administrator message',
    re: /\b(?:(?:important|urgent|critical|mandatory)\s+)?(?:system|admin(?:istrator)?|developer|security|root|operator)\s+(?:note|notice|message|override|alert|directive|instruction|update|command|prompt)\s*[:!—-]/i,
  },
  {
    kind: 'instruction',
    reason: 'tries to change the role of the assistant',
    re: new RegExp(
      '\\b(?:from\\s+now\\s+on,?\\s+(?:you|the\\s+' +
        AI +
        ')|you\\s+are\\s+(?:now|no\\s+longer)\\b|you\\s+will\\s+now\\b|you\\s+must\\s+now\\b|you\\s+have\\s+(?:been\\s+)?(?:now\\s+)?(?:jailbroken|freed|unlocked)|(?:enter|enable|activate|switch\\s+to)\\s+(?:developer|god|jailbreak|admin|unrestricted|DAN)\\s+mode|\\bDAN\\b.{0,40}\\b(?:anything|mode)|pretend\\s+(?:to\\s+be|you\\s+are|that\\s+you)|act\\s+as\\s+(?:if\\s+you|an?\\s+unrestricted|an?\\s+unfiltered|my|the\\s+system|root|admin)|roleplay\\s+as|your\\s+(?:new\\s+)?(?:role|persona|identity|purpose|goal|task)\\s+(?:is|now)\\b)',
      'i',
    ),
  },
  {
    kind: 'instruction',
    reason: 'addresses the assistant directly',
    re: new RegExp(
      '(?:^|[\\s>*_"\'(\\[-])(?:(?:note|message|instructions?|reminder|attention|memo)\\s+(?:to|for)\\s+(?:the\\s+|any\\s+|all\\s+|every\\s+)?' +
        AI_READER +
        '\\b|(?:dear|hey|hello|attention|to)\\s+(?:the\\s+|all\\s+|any\\s+)?' +
        AI_READER +
        '\\b[,:!]|(?:if|when|whenever|once)\\s+(?:you\\s+are\\s+an?\\s+|an?\\s+|the\\s+)?' +
        AI +
        's?\\s+(?:reads?|reading|sees?|seeing|process(?:es|ing)?|finds?|loads?|is\\s+reading|encounters?|recalls?)\\b|(?:when|whenever|once|if)\\s+you\\s+(?:read|see|process|load|recall|encounter)\\s+this\\b)',
      'i',
    ),
  },
  {
    kind: 'instruction',
    reason: 'gives orders to an AI reader of this memory',
    re: new RegExp(
      '\\b(?:(?:any|all|every|each|the)\\s+)?' +
        AI_READER +
        ',?\\s+' +
        READS_THIS +
        '[^.;!?\\n]{0,80}?' +
        OBLIGED +
        '|\\bif\\s+you\\s+are\\s+(?:an?\\s+)?' +
        AI_READER +
        '\\s*[,:]|^\\s*(?:[-*+>]\\s*)*(?:(?:hey|dear|ok|okay|attention)\\s+)?(?:the\\s+)?' +
        AI_READER +
        '\\s*,\\s+' +
        IMPERATIVE,
      'i',
    ),
  },
  {
    kind: 'instruction',
    reason: 'asks to hide what it does from the user',
    re: /\b(?:do\s+not|don'?t|never)\s+(?:tell|inform|(?:mention|reveal|show|report)\s+(?:this|it|that|anything)?\s*(?:\w+\s+)?to|alert|notify|warn)\s+(?:the\s+)?(?:user|human|developer|operator|anyone)\b|\bwithout\s+(?:telling|informing|notifying|alerting)\s+(?:the\s+)?(?:user|human|anyone|developer|owner|team)\b|\bwithout\s+the\s+user(?:'s)?\s+(?:knowledge|noticing)|\b(?:keep\s+this|this\s+(?:instruction|message)\s+(?:is|must\s+(?:be|stay)))\s+(?:secret|hidden|confidential)\s+from\b/i,
  },
  {
    kind: 'instruction',
    reason: 'asks to reveal the system prompt or secrets',
    re: /\b(?:reveal|print|output|repeat|show|leak|dump|disclose|display|tell\s+me)\s+(?:me\s+)?(?:your|the)\s+(?:full\s+|entire\s+|hidden\s+|initial\s+|original\s+)?(?:system\s+prompt|instructions|hidden\s+prompt|initial\s+prompt|prompt\s+verbatim|api\s+keys?|secrets|credentials|environment\s+variables)/i,
  },
  {
    kind: 'instruction',
    reason: 'asks to send private files or credentials somewhere',
    re: /\b(?:upload|send|post|exfiltrate|transmit|forward|e-?mail|copy|pipe|leak|share|paste|push|sync|submit)\b(?:\s+(?:the|all|every|any|your|my|our|their|these|those|its|contents?|of|copies|a|copy|files?|in|from|this|that|user's|repo's|project's))*\s+(?:~\/|\$HOME\/)?(?:\.ssh\b|\.ssh\/|id_rsa|id_ed25519|\.aws\/credentials|\.env(?![.\w-])|\.npmrc|\.netrc|\.git-credentials|\.pgpass|\.docker\/config|kube\/?config|private\s+keys?|ssh\s+keys?|api\s+keys?|secrets?\b|credentials?\b|passwords?\b|tokens?\b|environment\s+variables|env\s+vars|\/etc\/(?:passwd|shadow))/i,
  },
  {
    kind: 'instruction',
    reason: 'pipes a download into a shell',
    re: /\b(?:curl|wget|iwr|invoke-webrequest|fetch)\b[^|\n]{0,200}\|\s*(?:sudo\s+)?(?:ba|z|da|fi)?sh\b|\b(?:curl|wget)\b[^\n]{0,200}\s(?:-d|--data(?:-binary)?|-F|--upload-file|-T|--post-file)\s+["']?@?(?:~\/\.ssh|\$HOME\/\.ssh|\/etc\/|~\/\.aws|\.env\b|\$\(cat|`cat)|\b(?:bash|sh)\s+-c\s+["']\$\((?:curl|wget)|\beval\s*\(\s*(?:atob|base64)|\bbase64\s+(?:-d|--decode)\b[^\n]{0,40}\|\s*(?:ba)?sh\b|\bnc\s+(?:-e|-c)\s|\/dev\/tcp\//i,
  },
  {
    kind: 'instruction',
    reason: 'orders a destructive command',
    re: /\brm\s+-(?:rf|fr|r\s+-f)\s+(?:--no-preserve-root\s+)?(?:~|\/|\$HOME|\*|\.\s*$)(?:[\s`'"]|$|\/[\s`'"]|\/\*)|\bgit\s+push\s+(?:-f|--force)\b[^\n]{0,40}\b(?:main|master)\b[^\n]{0,60}\b(?:immediately|now|without|silently)\b|\b(?:drop\s+database|mkfs\.|dd\s+if=\/dev\/zero\s+of=\/dev\/|chmod\s+-R\s+777\s+\/(?:\s|$)|:\(\)\s*\{\s*:\|:&\s*\};:)/i,
  },
  {
    kind: 'role-tag',
    reason: 'chat-template role tag',
    re: /<\|(?:im_start|im_end|im_sep|system|user|assistant|endoftext|begin_of_text|end_of_text|start_header_id|end_header_id|eot_id|eom_id|tool|ipython|fim_prefix|channel|message|start|end|return|call|constrain)\|>|\[\/?INST\]|<<\/?SYS>>|<\/?s>\s*\[INST|^\s*(?:[-*+>]\s*)*#{1,4}\s*(?:system|instruction|response|assistant)\s*(?:prompt|message)?\s*:?\s*$/im,
  },
  {
    kind: 'tool-call',
    reason: 'tool-call or JSON-RPC shape',
    re: /"jsonrpc"\s*:\s*"2\.0"|"method"\s*:\s*"(?:tools\/call|tools\/list|resources\/read|prompts\/get|sampling\/createMessage|notifications\/)|<\/?(?:tool_call|tool_use|function_call|function_calls|tool_calls|invoke|antml:invoke|antml:function_calls|parameter\s+name=|tool_code|execute_command|use_mcp_tool|write_to_file|execute_bash)\b|"(?:tool_calls|function_call|tool_use)"\s*:|"type"\s*:\s*"(?:tool_use|function|tool_call)"\s*,|\{\s*"(?:name|tool|tool_name|function)"\s*:\s*"[\w./:-]+"\s*,\s*"(?:arguments|args|parameters|input|params)"\s*:|<function=[\w.-]+>|\bcall(?:ing)?\s+(?:the\s+)?(?:tool|function)\s+`?[\w./-]+`?\s+with\s+(?:arguments|args|parameters)\s*[:{]/i,
  },
];

/** A bare role element (`<system>`, `</user>`)… */
const ROLE_ELEMENT =
  /<\/?(?:system|system-prompt|system_prompt|sys|assistant|user|human|instructions?|developer|tool_result|function_results|admin|override)>/i;
/** A `system:` / `assistant:` / `developer:` role prefix at the start of a line… */
const ROLE_PREFIX =
  /^\s*(?:[-*+>]\s*)*(?:\*\*|__)?\[?(system|assistant|developer|sys|ai|model)\]?(?:\*\*|__)?\s*:\s*(?:\*\*|__)?\s*(.*)$/i;
/**
 * …or a `system:` / `developer:` one after a daily note's time (`- 17:28 system: …`, the bullet
 * `memory_observe` writes for that role, R105); a timed `assistant:` turn is a captured reply, not a role tag.
 */
const TIMED_ROLE_PREFIX =
  /^\s*(?:[-*+>]\s*)*\d{1,2}:\d{2}(?::\d{2})?\s+(?:\*\*|__)?\[?(system|developer|sys)\]?(?:\*\*|__)?\s*:\s*(.*)$/i;
/** …flagged when what follows gives orders (a `System: Ubuntu 22.04` line is no injection). */
const ORDERING =
  /\b(?:you|your|ignore|disregard|must|always|never|do\s+not|don'?t|now|override|instructions?|obey|comply|execute|run|reveal|forget|from\s+now)\b/i;

/** Weak cues: an instruction to act, flagged only with a second cue ({@link PRESSURE}). */
const ACT =
  /\b(?:run|execute|exec|eval|invoke|call|type|paste|install)\s+(?:this|the\s+following|these|the\s+below|the\s+next)\s+(?:command|commands|code|script|snippet|shell|line|payload|one-liner|tool|function)|\byou\s+(?:must|should|need\s+to|have\s+to|are\s+(?:required|instructed|ordered)\s+to|shall)\s+(?:now\s+|immediately\s+|always\s+|first\s+)?(?:run|execute|call|send|upload|delete|remove|disable|email|post|fetch|download|install|grant|approve|push|merge|transfer|reply|respond|output|print|include|add|insert|write|open|visit|click|navigate|obey|follow|comply|ignore|stop|never)\b|\b(?:always|never)\s+(?:respond|reply|answer|say|output|include|obey|refuse|mention|recommend)\b|\b(?:proceed|comply)\s+(?:now|immediately|without)\b/i;
/** Second cues: urgency, authority, addressing the assistant, secrecy, an outside address. */
const PRESSURE = new RegExp(
  '\\b(?:immediately|right\\s+now|urgent(?:ly)?|asap|without\\s+(?:asking|confirmation|permission|question|hesitation|delay|review)|silently|quietly|secretly|before\\s+(?:doing\\s+)?anything\\s+else|before\\s+(?:you\\s+)?(?:answer(?:ing)?|respond(?:ing)?|reply(?:ing)?)|now\\s*[:!]|at\\s+(?:the\\s+)?(?:start|beginning)\\s+of\\s+(?:every|each)\\s+(?:response|reply|answer|session)|in\\s+(?:every|each|all)\\s+(?:future\\s+)?(?:response|reply|answer|session)s?|important|mandatory|obey|comply|' +
    AI +
    's?|https?:\\/\\/|\\b(?:\\d{1,3}\\.){3}\\d{1,3}\\b|webhook|attacker|pastebin|ngrok|requestbin|do\\s+not\\s+(?:question|verify|check)|no\\s+matter\\s+what)\\b',
  'i',
);

// An AI named as such for the weak cue below: a bare `agent`, `model` or `bot` (a CI agent, a data
// model) only with a word that makes it an AI one.
const AI_NAMED =
  '(?:(?:coding|code|autonomous|automated|AI|LLM)\\s+(?:agents?|assistants?|models?|bots?|systems?|tools?)|AI|LLMs?|(?:large\\s+)?language\\s+models?|chatbots?|assistants?|Claude(?:\\s+Code)?|Copilot|ChatGPT|GPT(?:-\\d)?|Gemini(?:\\s+CLI)?|Codex|Cursor(?:\\s+agents?)?)';
/** Weak cue: an AI named as the one who must act (`AI agents must …`, `Claude should always …`), not passive, not negated… */
const AI_OBLIGED = new RegExp(
  '\\b' +
    AI_NAMED +
    "\\b(?:\\s+[\\w'-]+){0,4}?\\s+(?:must|should|shall|(?:needs?|has|have)\\s+to|(?:is|are)\\s+(?:required|expected|instructed|supposed)\\s+to|(?:is|are)\\s+to)\\s+(?:always\\s+|now\\s+|immediately\\s+|just\\s+|simply\\s+|also\\s+)?(?!not\\b|never\\b|be\\b|been\\b|have\\s+been\\b)[a-z]",
  'i',
);
/** …flagged with an action against review or safety that is not itself negated (`never skip tests` is a rule). */
const UNSAFE =
  /(?<!\b(?:never|not|n't|no|avoid|nor)\s+)(?:--force\b|--no-verify\b|\bforce[- ]push|\bwithout\s+(?:any\s+)?(?:checking|checks?|review(?:ing|s)?|tests?|testing|running\s+(?:the\s+)?tests|approval|asking|confirmation|verif\w*|reading|looking|question\w*)\b|\bskip(?:ping)?\s+(?:all\s+|the\s+|every\s+|any\s+)?(?:tests?|checks?|reviews?|CI|hooks?|pre-commit|verification|validation|linters?|scans?)\b|\bdisabl(?:e|ing)\s+(?:all\s+|the\s+|every\s+|any\s+)?(?:secret\s+scann\w*|scanners?|tests?|checks?|hooks?|security|2fa|mfa|linters?|CI|branch\s+protection|signing|guards?|audit\w*|logging)\b|\bapprov(?:e|ing)\s+(?:all|every|any)\b|\b(?:delete|remove|drop)\s+(?:all|every)\b|\b(?:silently|secretly)\b|\b(?:directly|straight)\s+(?:in)?to\s+(?:main|master|prod\w*)\b)/i;

/** A scoped exception (`skip tests only when …`, `unless …`) reads as a project rule, not as an order. */
const SCOPED = /\b(?:only\s+(?:when|if|for|after|in|on)|unless|except)\b/i;

/** The first column of a match of `re` in `line` (1-based), or 0. */
function columnOf(re: RegExp, line: string): number {
  const m = re.exec(line);
  return m ? m.index + 1 : 0;
}

/**
 * The finding of one line's text (without its number), or undefined when it looks like plain memory.
 * `markers`: whether {@link INJECTION_ALLOW_MARKER} exempts the line (default `honoured`; `ignored`
 * for text a write brings in).
 */
export function injectionOfLine(
  text: string,
  markers: AllowMarkers = 'honoured',
): Omit<InjectionFinding, 'line'> | undefined {
  if (!text || (markers === 'honoured' && text.includes(INJECTION_ALLOW_MARKER))) return undefined;
  for (const [re, reason] of [
    [TAG_CHARS, 'hidden Unicode tag characters'],
    [BIDI, 'bidirectional override characters'],
    [ZERO_WIDTH_RUN, 'a run of zero-width characters'],
  ] as const) {
    const column = columnOf(re, text);
    if (column) return { column, kind: 'hidden-characters', reason };
  }
  const found = patternsOf(text);
  if (found) return found;
  // Written to slip past the patterns: hidden characters inside a word, look-alike letters, markers (R100).
  const skeleton = skeletonOf(text);
  const read = skeleton && patternsOf(skeleton.text);
  if (skeleton && read)
    return {
      column: skeleton.originOf(read.column - 1) + 1,
      kind: read.kind,
      reason: `${read.reason}, spelled with hidden or look-alike characters`,
    };
  return encodedOrder(text);
}

/** An order written letter by letter with no word breaks (`i g n o r e a l l p r e v i o u s …`), letters only. */
const SPELLED_OUT =
  /(?:ignore|disregard|forget|override)(?:all|any|the|your)?(?:previous|prior|above|earlier|preceding|system)(?:instructions?|prompts?|rules|directives?|messages)?|(?:ignore|disregard|forget)(?:all|everything)(?:previous|prior|earlier|above|else)|(?:ignore|disregard|forget|override)(?:all|any|the|your)(?:instructions|prompts|rules)|youarenow|newinstructions|revealyoursystemprompt|developermode/;

/** How a finding on an encoded reading says where it was read. */
const ENCODED_AS: Readonly<Record<EncodedReading['how'], string>> = {
  base64: 'encoded as base64',
  hex: 'encoded as hex bytes',
  'letter-spaced': 'spelled letter by letter',
  reversed: 'written backwards',
  ROT13: 'encoded as ROT13',
};

/** The finding of the patterns on an encoded reading of `text` (core/encoded-text.ts, R150), or undefined. */
function encodedOrder(text: string): Omit<InjectionFinding, 'line'> | undefined {
  for (const reading of encodedReadings(text)) {
    const read =
      patternsOf(reading.text) ??
      (reading.how === 'letter-spaced' && SPELLED_OUT.test(lettersOnly(reading.text))
        ? { kind: 'instruction' as const, reason: 'asks to ignore earlier instructions' }
        : undefined);
    if (read)
      return { column: reading.start + 1, kind: read.kind, reason: `${read.reason}, ${ENCODED_AS[reading.how]}` };
  }
  return undefined;
}

/** The finding of the patterns on `text` as written (no hidden-character check), or undefined. */
function patternsOf(text: string): Omit<InjectionFinding, 'line'> | undefined {
  // Plain ASCII-ish words from here on: a line of only symbols, digits or short text cannot order.
  if (text.length < 8 || !/[A-Za-z]{2}|<\||\[INST/.test(text)) return undefined;
  for (const p of STRONG) {
    const column = columnOf(p.re, text);
    if (column) return { column, kind: p.kind, reason: p.reason };
  }
  const element = ROLE_ELEMENT.exec(text);
  if (element && ORDERING.test(text.replace(ROLE_ELEMENT, ' ')))
    return { column: element.index + 1, kind: 'role-tag', reason: `${element[0]} role element` };
  const role = ROLE_PREFIX.exec(text) ?? TIMED_ROLE_PREFIX.exec(text);
  if (role && ORDERING.test(role[2] ?? ''))
    return { column: text.search(/\S/) + 1, kind: 'role-tag', reason: `"${role[1]!.toLowerCase()}:" role prefix` };
  const act = ACT.exec(text);
  if (act && PRESSURE.test(text))
    return { column: act.index + 1, kind: 'instruction', reason: 'orders the assistant to act' };
  const obliged = AI_OBLIGED.exec(text);
  if (obliged && UNSAFE.test(text) && !SCOPED.test(text))
    return { column: obliged.index + 1, kind: 'instruction', reason: 'orders an AI agent to bypass review or safety' };
  return undefined;
}

/** The finding of a line that orders only read with its neighbour ({@link flaggedLines}). */
export const SPLIT_INJECTION = {
  column: 1,
  kind: 'instruction',
  reason: 'an instruction split across two lines',
} as const satisfies Omit<InjectionFinding, 'line'>;

/** A line that ends a sentence or a statement: an order split there reads as two. */
const ENDS_STATEMENT = /[.!?;:)\]`|]\s*$|^\s*$/;
/** The reasons of the two-cue checks ({@link ACT} with {@link PRESSURE}, {@link AI_OBLIGED} with {@link UNSAFE}). */
const WEAK_REASONS = ['orders the assistant to act', 'orders an AI agent to bypass review or safety'];
/** How much of each line the join of a split order reads (the end of the first, the start of the second). */
const JOIN_WINDOW = 80;

/**
 * The line numbers of `lines` (file lines, in order) that hold a suspected instruction: each line on
 * its own, and both lines of an order split across two adjacent lines or list items ("- ignore your"
 * / "- previous instructions and …", R152): the end of a line that does not end a statement, joined
 * with the start of the next line without its list or quote marker, read as one line. `read`: the
 * finding of one line's text ({@link injectionOfLine}, or a memo of it: validate's per-line cache).
 */
export function flaggedLines(
  lines: readonly { readonly line: number; readonly text: string }[],
  read: (text: string) => Omit<InjectionFinding, 'line'> | undefined = injectionOfLine,
): Set<number> {
  const alone = lines.map((l) => read(l.text) !== undefined);
  const out = new Set(lines.filter((_, i) => alone[i]).map((l) => l.line));
  for (let i = 0; i + 1 < lines.length; i++) {
    const [a, b] = [lines[i]!, lines[i + 1]!];
    if (alone[i] || alone[i + 1] || b.line !== a.line + 1 || ENDS_STATEMENT.test(a.text) || !b.text.trim()) continue;
    const first = a.text.slice(LEAD.exec(a.text)![0].length).slice(-JOIN_WINDOW);
    const second = b.text.slice(LEAD.exec(b.text)![0].length).slice(0, JOIN_WINDOW);
    const joined = read(`${first} ${second}`);
    // Two weak cues, one on each line, are two statements, not one order.
    if (joined && !WEAK_REASONS.some((r) => joined.reason.startsWith(r))) out.add(a.line).add(b.line);
  }
  return out;
}

/**
 * Suspected injection lines of `text` (line ends `\n`, `\r\n` or `\r`), at most one finding per
 * line, in line order. Lines holding {@link INJECTION_ALLOW_MARKER} are never reported.
 * @returns `{line, column, kind, reason}` per flagged line; `[]` for plain memory.
 */
export function injectionFindings(text: string): InjectionFinding[] {
  const out: InjectionFinding[] = [];
  text.split(/\r\n|\r|\n/).forEach((t, i) => {
    const f = injectionOfLine(t);
    if (f) out.push({ line: i + 1, ...f });
  });
  return out;
}

/** `s` with hidden characters shown as `[hidden: …]` (code points, at most four, then the count). */
export function showHidden(s: string): string {
  HIDDEN.lastIndex = 0;
  return s.replace(HIDDEN, (run) => {
    const cps = [...run].map((c) => `U+${c.codePointAt(0)!.toString(16).toUpperCase().padStart(4, '0')}`);
    return `[hidden: ${cps.slice(0, 4).join(' ')}${cps.length > 4 ? ` … ${cps.length} characters` : ''}]`;
  });
}

/** A list marker, quote marker or indent at the start of a line: the label goes after it. */
const LEAD = /^\s*(?:(?:[-*+]|\d+[.)]|>)\s+)*/;

/** `line` labelled as a suspected instruction: `- [suspected instruction, quoted] …` (after its list marker). */
export function labelLine(line: string): string {
  const lead = LEAD.exec(line)![0];
  return `${lead}${INJECTION_LABEL} ${line.slice(lead.length)}`;
}

/**
 * `text` as an agent may be shown it: every flagged line labelled ({@link labelLine}) and hidden
 * characters shown escaped ({@link showHidden}) on every line. Same number of lines; `text` itself
 * when nothing is flagged or hidden.
 */
export function markInjection(text: string): string {
  const parts = text.split(/(\r\n|\r|\n)/);
  const flagged = flaggedLines(parts.flatMap((t, i) => (i % 2 ? [] : [{ line: i / 2, text: t }])));
  let changed = false;
  for (let i = 0; i < parts.length; i += 2) {
    const line = parts[i]!;
    const shown = showHidden(line);
    if (!flagged.has(i / 2) && shown === line) continue;
    parts[i] = flagged.has(i / 2) ? labelLine(shown) : shown;
    changed = true;
  }
  return changed ? parts.join('') : text;
}
