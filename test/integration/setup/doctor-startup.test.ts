// `gitmem doctor` names what a process start costs before gitmem runs: with NODE_EXTRA_CA_CERTS set,
// Node 20 parses every root certificate at each start (cli/startup-cost.ts). Real CLI, real Node.
import { rmSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { copyFixture, okOutput, runCli } from '../../support/fixtures.js';

describe('doctor: start-up cost', { timeout: 120_000 }, () => {
  it('reports NODE_EXTRA_CA_CERTS and, on Node 20, what it costs each call; nothing without it', () => {
    const ws = copyFixture('demo');
    try {
      const pem = join(dirname(ws), 'extra-ca.pem');
      writeFileSync(pem, '');
      const eager = Number(process.versions.node.split('.')[0]) <= 20;
      const set = okOutput(runCli(['doctor', '--json', '--dir', ws], { env: { NODE_EXTRA_CA_CERTS: pem } }));
      expect(set.startup.extraCaCerts).toBe(true);
      expect(set.startup.eagerCertificates).toBe(eager);
      expect(JSON.stringify(set)).not.toContain(pem);
      const text = runCli(['doctor', '--dir', ws], { env: { NODE_EXTRA_CA_CERTS: pem } });
      if (eager)
        expect(text.stdout).toMatch(/node +v20\.\S+ — NODE_EXTRA_CA_CERTS is set: Node 20\.\S+ parses every root/);
      else expect(text.stdout).not.toMatch(/NODE_EXTRA_CA_CERTS is set/);
      const unset = okOutput(runCli(['doctor', '--json', '--dir', ws], { env: { NODE_EXTRA_CA_CERTS: '' } }));
      expect(unset.startup).toEqual({ extraCaCerts: false, eagerCertificates: false });
      expect(runCli(['doctor', '--dir', ws], { env: { NODE_EXTRA_CA_CERTS: '' } }).stdout).not.toMatch(
        /NODE_EXTRA_CA_CERTS/,
      );
    } finally {
      rmSync(dirname(ws), { recursive: true, force: true });
    }
  });
});
