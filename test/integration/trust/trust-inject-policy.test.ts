// Issue 41 item 7: one rule for what may be injected. A memory that arrived through `gitmem sync`
// from another author (a real bare remote and two clones in temp folders, each with its own git
// identity) is `incoming` in Ben's clone: `recall --json` says so with Ann as its author, `hook
// prompt` withholds it with one line naming `gitmem review`, and once Ben approves it
// (`gitmem review --approve`) it is reviewed and injected; approving it again, or a file that awaits
// nothing, approves nothing and says so (R92). Build first.
import { describe, expect, it } from 'vitest';
import { okOutput, runCli } from '../../support/fixtures.js';
import { ok, sync, useSyncClones } from '../../support/sync-clones.js';

const clones = useSyncClones();
const env = { GITMEM_NO_HOST: '1' };

describe('recall.inject: unreviewed incoming memories are withheld from injected blocks', () => {
  it('withholds the synced entry with a one-line note until it is approved', () => {
    const { a, b } = clones();
    const mine = okOutput(
      runCli(
        [
          'remember',
          'Invoices are archived as PDF in the zqinvoicex bucket',
          '--type',
          'decision',
          '--json',
          '--dir',
          a,
        ],
        { env },
      ),
    );
    ok(sync(a));
    const pulled = ok(sync(b)).json();
    expect(pulled.commitsIn.length).toBeGreaterThan(0);

    const rec = okOutput(runCli(['recall', 'zqinvoicex', '--json', '--mode', 'keyword', '--dir', b], { env }));
    expect(rec.results[0].path).toBe(mine.path);
    expect(rec.results[0].review).toBe('incoming');
    expect(rec.results[0].provenance).toMatchObject({ author: 'Ann', writer: 'person' });

    const hook = runCli(['hook', 'prompt', '--prompt', 'where are zqinvoicex invoices archived', '--dir', b], { env });
    expect(hook.code, hook.stderr).toBe(0);
    expect(hook.stdout).toMatch(/^### Recalled Context\n/);
    expect(hook.stdout).toContain('1 unreviewed incoming memory withheld: gitmem review');
    expect(hook.stdout).not.toContain('zqinvoicex');
    expect(hook.stdout.split('\n').filter((l) => l.includes('withheld'))).toHaveLength(1);

    // A person's CLI recall still shows it, labelled; `gitmem review` lists it.
    const queue = okOutput(runCli(['review', '--json', '--dir', b], { env }));
    expect(queue.pending).toEqual([expect.objectContaining({ path: mine.path, state: 'incoming', via: 'sync' })]);
    const approved = okOutput(runCli(['review', '--approve', mine.path, '--json', '--dir', b], { env }));
    expect(approved).toMatchObject({ approved: [mine.path], notAwaiting: [], pending: [] });
    // R92: approving what awaits nothing is said, never reported as an approval.
    const twice = okOutput(runCli(['review', '--approve', mine.path, '--json', '--dir', b], { env }));
    expect(twice).toMatchObject({ approved: [], notAwaiting: [mine.path] });
    const own = runCli(['review', '--approve', 'memory/MEMORY.md', '--dir', b], { env });
    expect(own.code, own.stderr).toBe(0);
    expect(own.stdout).toContain('not awaiting review (nothing to approve): memory/MEMORY.md');
    expect(own.stdout).not.toMatch(/^approved /m);

    const again = runCli(['hook', 'prompt', '--prompt', 'where are zqinvoicex invoices archived', '--dir', b], { env });
    expect(again.code, again.stderr).toBe(0);
    expect(again.stdout).toContain('zqinvoicex');
    expect(again.stdout).toContain(`- ${mine.path} · `);
    expect(again.stdout).not.toContain('withheld');
    const after = okOutput(runCli(['recall', 'zqinvoicex', '--json', '--mode', 'keyword', '--dir', b], { env }));
    expect(after.results[0].review).toBe('reviewed');
  });
});
