// Bad inputs T11, U03, U26 (docs/bad-inputs.md): a usage error found by the flag parser (unknown option, a value
// outside its choices, a missing argument) is reported like every other error, `gitmem: error: …`
// with an indented hint, and exit 2. With --json the same error is also one JSON object on stdout,
// and a --limit over the maximum says so on stderr instead of capping silently.
import { describe, expect, it } from 'vitest';
import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { copyFixture, runCli } from '../../support/fixtures.js';

describe('flag-parser usage errors', { timeout: 60_000 }, () => {
  it.each([
    [['recall', '--bogus', 'x'], /unknown option '--bogus'/],
    [['recall', 'x', '--mode', 'fuzzy'], /argument 'fuzzy' is invalid/],
    [['recall'], /missing required argument 'query'/],
  ])('%j: gitmem: error: prefix, a hint line, exit 2', (args, message) => {
    const r = runCli(args);
    expect(r.code).toBe(2);
    const lines = r.stderr.split('\n').filter(Boolean);
    expect(lines[0]).toMatch(/^gitmem: error: /);
    expect(lines[0]).toMatch(message);
    for (const l of lines) expect(l).toMatch(/^(gitmem: (error|warning|note): | {2}hint: )/);
  });
});

describe('usage errors with --json', { timeout: 60_000 }, () => {
  it.each([
    [['recall', '--json', '--bogus', 'x'], /unknown option '--bogus'/],
    [['recall', 'x', '--json', '--mode', 'fuzzy'], /argument 'fuzzy' is invalid/],
    [['recall', '--json'], /missing required argument 'query'/],
    [['recall', 'x', '--json', '--limit', 'lots'], /--limit must be a positive integer/],
  ])('%j: stdout is one JSON error object {code: usage}, exit 2', (args, message) => {
    const r = runCli(args);
    expect(r.code).toBe(2);
    const j = r.json();
    expect(j.error.code).toBe('usage');
    expect(j.error.message).toMatch(message);
    expect(j.error.message).not.toMatch(/^error: /);
    expect(r.stderr).toMatch(/^gitmem: error: /);
  });

  it('--limit over 50 answers with at most 50 and says so on stderr; stdout stays JSON', () => {
    const ws = copyFixture('demo');
    const r = runCli(['recall', 'the', '--dir', ws, '--mode', 'keyword', '--limit', '51', '--json']);
    expect(r.code).toBe(0);
    expect(r.stderr).toMatch(/^gitmem: note: --limit 51 is over the maximum; showing at most 50$/m);
    expect(r.json().results.length).toBeLessThanOrEqual(50);
    const within = runCli(['recall', 'the', '--dir', ws, '--mode', 'keyword', '--limit', '50', '--json']);
    expect(within.stderr).not.toMatch(/--limit/);
  });
});

// U26: a command group called without its subcommand printed its help and exited 0 with nothing on
// stdout, so a hook or script that ran `gitmem state --json` took the empty output as success.
describe('a command group without its subcommand (U26)', { timeout: 60_000 }, () => {
  it.each([
    [['state', '--json'], /'state' needs a subcommand/],
    [['hook', '--json'], /'hook' needs a subcommand/],
    [['--json'], /no command given/],
  ])('%j: a usage error object on stdout, exit 2', (args, message) => {
    const r = runCli(args);
    expect(r.code).toBe(2);
    const j = r.json();
    expect(j.error.code).toBe('usage');
    expect(j.error.message).toMatch(message);
    expect(r.stderr).toMatch(/^Usage: gitmem/);
    expect(r.stderr).toMatch(/^gitmem: error: /m);
  });

  it('without --json: the help on stderr, an error line, exit 2; asking for help still exits 0', () => {
    const r = runCli(['state']);
    expect(r.code).toBe(2);
    expect(r.stdout).toBe('');
    expect(r.stderr).toMatch(/snapshot \[options\]/);
    expect(r.stderr).toMatch(/^gitmem: error: 'state' needs a subcommand/m);
    for (const args of [['help'], ['state', '--help'], ['help', 'state'], ['hook', 'prompt', '--help']]) {
      const h = runCli(args);
      expect(h.code).toBe(0);
      expect(h.stdout).toMatch(/^Usage: gitmem/);
    }
  });
});

// U42: a parser error quotes the argument it rejects, and a text that starts with "-" reads as an
// option, so `gitmem remember "$(cat key.pem)"` printed the whole private key, over several lines,
// on stderr (and `-x ghp_…` in the --json error). The key below is a made-up one.
describe('a parser error that would echo a credential or a multi-line text (U42)', { timeout: 60_000 }, () => {
  const token = `ghp_${'a1B2c3D4e5'.repeat(4)}`;
  const key = [
    '-----BEGIN OPENSSH PRIVATE KEY-----',
    `b3BlbnNzaC1rZXktdjEAAAAABG5v${'Q'.repeat(40)}`,
    '-----END OPENSSH PRIVATE KEY-----',
  ].join('\n');
  const linesOk = (stderr: string) => {
    for (const l of stderr.split('\n').filter(Boolean))
      expect(l).toMatch(/^(gitmem: (error|warning|note): | {2}hint: )/);
  };

  it('U42: a private key as remember text: one error line without the key, a hint to put -- first, exit 2', () => {
    const ws = copyFixture('demo');
    const r = runCli(['remember', '--dir', ws, key]);
    expect(r.code).toBe(2);
    linesOk(r.stderr);
    expect(r.stderr).not.toContain('b3BlbnNz');
    expect(r.stderr).not.toContain('END OPENSSH');
    expect(r.stderr).toMatch(/^gitmem: error: unknown option '/m);
    expect(r.stderr).toMatch(/^ {2}hint: .*put -- before the text/m);
    // what the hint says works: the text is then read as text (and refused by the secret guard).
    const guarded = runCli(['remember', '--dir', ws, '--', key]);
    expect(guarded.code).toBe(1);
    expect(guarded.stderr).toMatch(/secret\.found|possible secret/);
    expect(readdirSync(join(ws, 'memory', 'entries')).some((f) => f.includes('openssh'))).toBe(false);
  });

  it.each([
    [['remember', '--json', `-x ${token}`], /^unknown option '-x ghp_…'$/],
    [['recall', '--json', `--bogus=${token}`, 'x'], /^unknown option '--bogus=ghp_…'$/],
    [['remember', '--json', 'x', '--type', token], /^option '--type <type>' argument 'ghp_…' is invalid\./],
    [['recall', '--json', '--limt', '3', 'x'], /^unknown option '--limt' \(Did you mean --limit\?\)$/],
  ])('U42: %j: the JSON message and stderr name the argument without the token, on one line', (args, message) => {
    const r = runCli(args);
    expect(r.code).toBe(2);
    expect(r.json().error.message).toMatch(message);
    expect(r.stdout + r.stderr).not.toContain(token);
    linesOk(r.stderr);
  });
});
