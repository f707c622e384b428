// The merge driver's status: a registered command whose node or gitmem script is gone is stale
// (`doctor` then says so and suggests --fix); a bare `gitmem merge-file` (found on PATH) is not checked.
// The portable form (R33) is stale only when neither gitmem nor node on PATH can run it; the
// absolute-path form of earlier versions is `outdated` while it still runs.
import { execFileSync } from 'node:child_process';
import { chmodSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { driverCommand, driverFiles, mergeDriverStatus } from '../../../src/git/attributes.js';

let dir: string;
const setDriver = (command: string) =>
  execFileSync('git', ['config', '--local', 'merge.gitmem.driver', command], { cwd: dir });

beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'gitmem-driver-'));
  mkdirSync(join(dir, 'repo'));
  dir = join(dir, 'repo');
  execFileSync('git', ['init', '-q'], { cwd: dir });
});
afterAll(() => rmSync(join(dir, '..'), { recursive: true, force: true }));

describe('merge driver status', () => {
  it('reads back the paths driverCommand quotes, apostrophes included', () => {
    const script = "/opt/it's gitmem/dist/cli.cjs";
    expect(driverFiles(driverCommand(script))).toEqual([script]);
    expect(driverFiles(`'${process.execPath}' '/opt/it'\\''s/cli.cjs' merge-file %O %A %B`)).toEqual([
      process.execPath,
      "/opt/it's/cli.cjs",
    ]);
    expect(driverFiles(driverCommand(undefined))).toEqual([]);
  });

  it('not registered, registered, and stale when the script the command names is gone', async () => {
    const env = { PATH: dirname(process.execPath) }; // node, no gitmem
    expect(await mergeDriverStatus(dir, env)).toEqual({ registered: false, command: null });
    const gone = join(dir, '..', 'gone', 'cli.js');
    setDriver(driverCommand(gone));
    const stale = await mergeDriverStatus(dir, env);
    expect(stale.registered).toBe(true);
    expect(stale.stale).toBe(`gitmem is not on PATH and ${gone} is missing`);
    expect((await mergeDriverStatus(dir, { PATH: join(dir, 'nothing-here') })).stale).toBe(
      'neither gitmem nor node is on PATH',
    );
    // A gitmem on PATH runs it whatever became of the script.
    const bin = join(dir, '..', 'bin');
    mkdirSync(bin, { recursive: true });
    writeFileSync(join(bin, 'gitmem'), '#!/bin/sh\n');
    chmodSync(join(bin, 'gitmem'), 0o755);
    expect(await mergeDriverStatus(dir, { PATH: bin })).toEqual({ registered: true, command: driverCommand(gone) });
    const present = join(dir, '..', 'cli.js');
    writeFileSync(present, '');
    setDriver(driverCommand(present));
    expect(await mergeDriverStatus(dir, env)).toEqual({ registered: true, command: driverCommand(present) });
    setDriver(driverCommand(undefined));
    expect(await mergeDriverStatus(dir, env)).toEqual({ registered: true, command: 'gitmem merge-file %O %A %B' });
  });

  it('the absolute-path form of earlier versions: stale when a file is gone, else outdated', async () => {
    const present = join(dir, '..', 'cli.js');
    writeFileSync(present, '');
    setDriver(`'${process.execPath}' '${present}' merge-file %O %A %B`);
    const outdated = await mergeDriverStatus(dir);
    expect(outdated.stale).toBeUndefined();
    expect(outdated.outdated).toBe(
      `it names the absolute paths ${process.execPath} and ${present}, and breaks when either moves`,
    );
    const oldNode = join(dir, '..', 'old-node', 'node');
    setDriver(`'${oldNode}' '${present}' merge-file %O %A %B`);
    expect(await mergeDriverStatus(dir)).toMatchObject({ registered: true, stale: `${oldNode} is missing` });
  });
});
