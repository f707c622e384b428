// `gitmem watch` as a real process (dist/cli.cjs; `npm run build` first): status lines, clean exit on
// SIGINT/SIGTERM, and kill -9 at random moments (mid-update, mid-compaction in the worker) never
// leaves an index that is served wrong: the next start loads it (never "corrupt"/"partial") and
// `gitmem index --paranoid` finds it identical to a rebuild.
import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { git, runCli } from '../../support/fixtures.js';
import { workspace } from '../../support/watch.js';
import { startWatchJson as startWatch } from '../../support/watch-process.js';

const WORDS = ['alpha', 'bravo', 'charlie', 'delta', 'echo', 'foxtrot', 'golf', 'hotel', 'india', 'juliet'];

describe('gitmem watch (process)', () => {
  it('prints one line per update and exits cleanly on SIGTERM and SIGINT with the index saved', async () => {
    const root = workspace({ 'memory/MEMORY.md': '# M\n\n- start\n' });
    git(root, 'init', '-q');
    for (const sig of ['SIGTERM', 'SIGINT'] as const) {
      const w = startWatch(root);
      await w.next((l) => l.event === 'ready');
      const upd = w.next((l) => l.event === 'update' && l.upserted.includes('memory/note.md'));
      writeFileSync(join(root, 'memory', 'note.md'), `# n\n\n- ${sig.toLowerCase()}word\n`);
      expect((await upd).persisted).toBe(true);
      w.child.kill(sig);
      expect(await w.exited).toEqual({ code: 0, signal: null });
      expect(w.lines.at(-1)).toEqual({ event: 'stopped', signal: sig });
      const r = runCli(['recall', `${sig.toLowerCase()}word`, '--dir', root, '--json', '--mode', 'keyword']).json();
      expect(r.results.map((x: any) => x.path)).toEqual(['memory/note.md']);
    }
  });

  it('kill -9 at random moments (updates, a compaction in the worker) → the next start serves a correct index', async () => {
    const root = workspace({ 'memory/MEMORY.md': '# M\n\n- start\n' });
    git(root, 'init', '-q');
    mkdirSync(join(root, 'memory', 'notes'), { recursive: true });
    await fc.assert(
      fc.asyncProperty(
        fc.array(
          fc.record({
            file: fc.integer({ min: 0, max: 7 }),
            words: fc.array(fc.constantFrom(...WORDS), { minLength: 1, maxLength: 6 }),
            big: fc.boolean(), // only note 0 is ever big: one compaction-sized note at a time
            del: fc.boolean(),
            wait: fc.boolean(),
          }),
          { minLength: 1, maxLength: 4 },
        ),
        fc.integer({ min: 0, max: 250 }),
        async (ops, killAfterMs) => {
          const w = startWatch(root);
          await w.next((l) => l.event === 'ready');
          for (const o of ops) {
            const p = join(root, 'memory', 'notes', `n${o.file}.md`);
            const rel = `memory/notes/n${o.file}.md`;
            const before = existsSync(p) ? readFileSync(p, 'utf8') : undefined;
            // A big note (2,100 paragraphs = 2,100 chunks) pushes the delta past the compaction threshold (2,000).
            const bullets =
              o.big && o.file === 0
                ? Array.from({ length: 2100 }, (_, i) => `${o.words.join(' ')} item${i}`).join('\n\n')
                : `- ${o.words.join(' ')}`;
            const after = o.del ? undefined : `# n${o.file}\n\n${bullets}\n`;
            // Sometimes let the update land before the next step (only to vary the moment of the kill:
            // correctness is checked after it). Same content, or a file created and deleted within one
            // burst, gives no update, hence the bound.
            const upd =
              o.wait && before !== after
                ? w.next((l) => l.event === 'update' && (l.upserted.includes(rel) || l.removed.includes(rel)), 5000)
                : undefined;
            if (after === undefined) rmSync(p, { force: true });
            else writeFileSync(p, after);
            if (upd) await upd.catch(() => undefined);
          }
          // A random moment: right away, or up to 250 ms later (mid-update or mid-compaction).
          await new Promise((r) => setTimeout(r, killAfterMs));
          w.child.kill('SIGKILL');
          await w.exited;
          const res = runCli(['index', '--paranoid', '--dir', root, '--json']);
          const rep = res.json();
          expect(rep.reason ?? '', res.stdout).not.toMatch(/corrupt|partial|unreadable/);
          expect(rep.paranoid.differences, res.stdout).toEqual([]);
          expect(res.code).toBe(0);
        },
      ),
      {
        numRuns: 6,
        // Always include a kill while the worker compacts a 2,100-chunk delta.
        examples: [[[{ file: 0, words: ['alpha', 'bravo'], big: true, del: false, wait: false }], 150]],
      },
    );
  }, 240_000); // seven watch processes, each followed by a paranoid index
});
