// The markdown a layout leaves out: files ending in `.md` that no kind of the layout takes and no
// `ignore` glob covers. Layout detection picks `default` for any project with a `memory/` folder, so
// in a CLAUDE.md project with docs/ and notes/ most of the markdown was silently not memory (1 of 17
// files; doctor said "1 memory files"). `doctor` and the first `index` say how many files are left
// out and the one config line that takes them in (docs/bad-inputs.md R29). deps: core, service/shared.
import { matchesAnyOf } from '../../core/glob.js';
import { classify, type Layout } from '../../core/layout.js';
import type { MemoryFs } from '../../core/ports.js';

/** Most example paths {@link LeftOutMarkdown.examples} holds. */
const EXAMPLES = 3;

export interface LeftOutMarkdown {
  /** Markdown files outside the layout (ignored folders not counted). */
  readonly count: number;
  /** The first few of them, sorted. */
  readonly examples: readonly string[];
  /** The config line that makes them memory: the `plain` layout takes every markdown file. */
  readonly include: string;
}

/** @returns the markdown files under `fs`'s root that `layout` leaves out (walks the work tree once). */
export async function leftOutMarkdown(fs: MemoryFs, layout: Layout): Promise<LeftOutMarkdown> {
  const left = await fs.list(
    (p) => /\.md$/i.test(p) && !matchesAnyOf(p, layout.ignore) && classify(p, layout) === undefined,
  );
  return {
    count: left.length,
    examples: left.slice(0, EXAMPLES),
    include: '"layout": "plain" in gitmem.config.json (e.g. {"version": 1, "layout": "plain"})',
  };
}

/** One line for people: `12 other markdown files are not memory in the default layout (a.md, …); to include them: …`. */
export function leftOutLine(left: LeftOutMarkdown, layoutName: string): string {
  const more = left.count > left.examples.length ? ', …' : '';
  return (
    `${left.count} other markdown file${left.count === 1 ? ' is' : 's are'} not memory in the ${layoutName} layout ` +
    `(${left.examples.join(', ')}${more}); to include them: ${left.include}`
  );
}
