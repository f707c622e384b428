// The merge driver's status: a registered command whose node or gitmem script is gone is stale
// (`doctor` then says so and suggests --fix); a bare `gitmem merge-file` (found on PATH) is not checked.
import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
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
    expect(driverFiles(driverCommand(script))).toEqual([process.execPath, script]);
    expect(driverFiles(driverCommand(undefined))).toEqual([]);
  });

  it('not registered, registered, and stale when the script the command names is gone', async () => {
    expect(await mergeDriverStatus(dir)).toEqual({ registered: false, command: null });
    setDriver(driverCommand(join(dir, '..', 'gone', 'cli.js')));
    const stale = await mergeDriverStatus(dir);
    expect(stale.registered).toBe(true);
    expect(stale.stale).toBe(`${join(dir, '..', 'gone', 'cli.js')} is missing`);
    const present = join(dir, '..', 'cli.js');
    writeFileSync(present, '');
    setDriver(driverCommand(present));
    expect(await mergeDriverStatus(dir)).toEqual({ registered: true, command: driverCommand(present) });
    setDriver(driverCommand(undefined));
    expect(await mergeDriverStatus(dir)).toEqual({ registered: true, command: 'gitmem merge-file %O %A %B' });
  });
});
