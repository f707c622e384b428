// ACE executor, tags of a task: technology and topic words from a fixed vocabulary, in canonical
// form. Pure and deterministic.
import { type EntryType } from '../core/document.js';
import { contentTokens } from './text.js';
import type { LinkedFile, TaskInput } from './types.js';

// ---------------------------------------------------------------------------------------------
// Tags

/** Technology and topic words worth a tag when they appear in a task (lowercase, canonical form). */
const VOCAB: ReadonlyArray<[RegExp, string]> = [
  [/\bpostgres(ql)?\b|\bpsql\b|\bpg\b/i, 'postgres'],
  [/\bmysql\b/i, 'mysql'],
  [/\bsqlite\b/i, 'sqlite'],
  [/\bredis\b/i, 'redis'],
  [/\bmongo(db)?\b/i, 'mongodb'],
  [/\bbullmq\b/i, 'bullmq'],
  [/\bkafka\b/i, 'kafka'],
  [/\bdocker(file)?\b|\bcontainer/i, 'docker'],
  [/\bkubernetes\b|\bk8s\b|\bkubectl\b|\bhelm\b/i, 'kubernetes'],
  [/\bterraform\b/i, 'terraform'],
  [/\bgraphql\b/i, 'graphql'],
  [/\bgrpc\b/i, 'grpc'],
  [/\breact\b|\bjsx\b|\btsx\b/i, 'react'],
  [/\bnext\.?js\b/i, 'nextjs'],
  [/\bvue\b/i, 'vue'],
  [/\btypescript\b|\btsc\b|\.tsx?\b/i, 'typescript'],
  [/\bpython\b|\.py\b|\bpytest\b|\bpip\b/i, 'python'],
  [/\brust\b|\bcargo\b|\.rs\b/i, 'rust'],
  [/\bgolang\b|\bgo mod\b|\.go\b/i, 'go'],
  [/\bjest\b/i, 'jest'],
  [/\bvitest\b/i, 'vitest'],
  [/\bplaywright\b|\bcypress\b|\be2e\b/i, 'e2e'],
  [/\btests?\b|\btesting\b|\bspec\b|\bunit test|\bfixtures?\b/i, 'testing'],
  [/\bmigrations?\b/i, 'migrations'],
  [/\bschema\b/i, 'schema'],
  [/\bwebhooks?\b/i, 'webhooks'],
  [/\bauth(entication|orization)?\b|\boauth\b|\bjwt\b|\blogin\b|\bsession token/i, 'auth'],
  [/\bsecurity\b|\bxss\b|\bcsrf\b|\bsql injection\b|\bsecrets?\b|\bhmac\b|\bcve\b/i, 'security'],
  [/\bperformance\b|\blatency\b|\bslow\b|\bp9[59]\b|\bthroughput\b|\bn\+1\b|\bfaster\b/i, 'performance'],
  [/\bcach(e|es|ing)\b/i, 'caching'],
  [/\bci\b|\bgithub actions\b|\bpipeline\b|\bworkflow file/i, 'ci'],
  [/\bdeploy(s|ed|ment)?\b|\brelease\b|\bstaging\b|\bproduction\b|\bprod\b/i, 'deploy'],
  [
    /\bdependenc(y|ies)\b|\bnpm\b|\bpnpm\b|\byarn\b|\bpackage\.json\b|\bupgrade\b|\bbump(ed)?\b|\bversion \d/i,
    'dependencies',
  ],
  [/\bapi\b|\bendpoints?\b|\brest\b|\bhttp\b/i, 'api'],
  [/\bretr(y|ies|ied)\b|\bback-?off\b|\bjitter\b/i, 'retries'],
  [/\bqueues?\b|\bjobs?\b|\bworkers?\b/i, 'queues'],
  [/\btime ?zones?\b|\butc\b|\btimestamps?\b|\bdates?\b/i, 'time'],
  [/\blogg(ing|er)\b|\blogs\b/i, 'logging'],
  [/\bconfig(uration)?\b|\benv(ironment)? var/i, 'config'],
  [/\bcss\b|\bstyles?heet\b|\blayout\b|\bui\b/i, 'ui'],
  [/\bconcurren(cy|t)\b|\brace condition\b|\bdeadlock\b|\bmutex\b|\block(s|ing)?\b/i, 'concurrency'],
  [/\bmemory leak\b|\bheap\b|\bgc\b|\bout of memory\b|\boom\b/i, 'memory'],
  [/\bgit\b|\brebase\b|\bmerge conflict\b|\bcommits?\b/i, 'git'],
  [/\bdocs?\b|\bdocumentation\b|\breadme\b/i, 'docs'],
  [/\brefactor(ing|ed)?\b/i, 'refactor'],
];

/**
 * Tags for a task: the caller's tags, `#hashtags` in the text, known technology/topic words, and
 * tags already used in the workspace whose word appears in the task. Lowercase, unique, at most `max`.
 */
export function extractTags(
  input: Pick<TaskInput, 'goal' | 'result' | 'feedback' | 'tags'>,
  options: { knownTags?: readonly string[]; type?: EntryType; files?: readonly LinkedFile[]; max?: number } = {},
): string[] {
  const text = [input.goal, input.result, input.feedback ?? ''].join('\n');
  const out: string[] = [];
  const add = (t: string) => {
    const v = t.trim().replace(/^#/, '').toLowerCase();
    if (v && v.length <= 40 && /^[\p{L}\p{N}][\p{L}\p{N}_./-]*$/u.test(v) && !out.includes(v)) out.push(v);
  };
  for (const t of input.tags ?? []) add(t);
  for (const m of text.matchAll(/(?:^|\s)#([\p{L}][\p{L}\p{N}_-]{1,30})/gu)) add(m[1]!);
  const fileText = (options.files ?? []).map((f) => f.path).join(' ');
  for (const [re, tag] of VOCAB) if (re.test(text) || (tag !== 'testing' && re.test(fileText))) add(tag);
  if ((options.files ?? []).some((f) => /(^|\/)(test|tests|__tests__|spec)\/|\.(test|spec)\.[a-z]+$/.test(f.path)))
    add('testing');
  // Tags the workspace already uses, when their word occurs in the task.
  const toks = new Set(contentTokens(text));
  for (const k of options.knownTags ?? []) {
    const kt = contentTokens(k);
    if (kt.length === 1 && toks.has(kt[0]!) && k.length >= 3) add(k);
  }
  return out.slice(0, options.max ?? 8);
}
