// R140: the chunker's fingerprint carries a digest of what masking does (core/secret-mask.ts
// maskingDigest over maskingProbe), so an index whose chunk texts other masking rules made is rebuilt.
// The probe must exercise every rule, or a change to an unexercised rule would leave the digest as it
// was: the record below lists every SecretRule (tsc fails when a rule is added without it).
import { describe, expect, test } from 'vitest';
import { maskingDigest, maskingProbe, maskSecrets, redaction } from '../../../src/core/secret-mask.js';
import { secretSpans, type SecretRule } from '../../../src/core/secrets.js';
import { splitSecretSpans } from '../../../src/core/split-secrets.js';
import { chunkerFingerprint, CHUNKER_VERSION } from '../../../src/parse/chunk.js';

const EVERY_RULE: Readonly<Record<SecretRule, true>> = {
  'private-key': true,
  'aws-access-key': true,
  'github-token': true,
  'slack-token': true,
  'slack-webhook': true,
  'openai-key': true,
  'npm-token': true,
  'google-api-key': true,
  'stripe-key': true,
  'gitlab-token': true,
  'huggingface-token': true,
  'sendgrid-key': true,
  'telegram-bot-token': true,
  'age-secret-key': true,
  jwt: true,
  'bearer-token': true,
  'url-credentials': true,
  'generic-assignment': true,
};

describe('the masking digest in the chunker fingerprint (R140)', () => {
  test('the probe holds every secret rule, each masked', () => {
    const probe = maskingProbe();
    const lines = probe.split('\n');
    const found = new Set(lines.flatMap((l) => secretSpans(l).map((s) => s.rule)));
    expect([...found].sort()).toEqual(Object.keys(EVERY_RULE).sort());
    const masked = maskSecrets(probe);
    for (const rule of Object.keys(EVERY_RULE) as SecretRule[]) expect(masked).toContain(redaction(rule));
  });

  test('the probe holds wrapped tokens and a marked line', () => {
    const lines = maskingProbe().split('\n');
    const wrapped = new Set([...splitSecretSpans(lines).values()].flat().map((s) => s.rule));
    expect([...wrapped].sort()).toEqual(['aws-access-key', 'github-token', 'jwt', 'stripe-key']);
    expect([...splitSecretSpans(lines).values()].flat().some((s) => s.inLine)).toBe(true);
    expect(lines.some((l) => l.includes('gitmem:allow-secret') && secretSpans(l, 'ignored').length > 0)).toBe(true);
  });

  test('the chunker fingerprint names the chunker version and the masking digest', () => {
    expect(maskingDigest()).toMatch(/^[0-9a-f]{12}$/);
    expect(chunkerFingerprint()).toBe(`${CHUNKER_VERSION}+mask:${maskingDigest()}`);
    expect(CHUNKER_VERSION).not.toBe('gitmem-chunk-3');
  });
});
