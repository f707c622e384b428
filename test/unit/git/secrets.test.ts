// Secret finder: token formats, private keys, high-entropy assignments; no false alarms on prose.
import { describe, expect, it } from 'vitest';
import {
  ALLOW_MARKER,
  findSecrets,
  findSecretsInText,
  looksRandom,
  shannonEntropy,
} from '../../../src/core/secrets.js';

const rules = (text: string) => findSecretsInText('m.md', text).map((f) => f.rule);

describe('findSecrets', () => {
  it.each([
    ['-----BEGIN RSA PRIVATE KEY-----', 'private-key'],
    ['-----BEGIN OPENSSH PRIVATE KEY-----', 'private-key'],
    ['-----BEGIN PRIVATE KEY-----', 'private-key'],
    ['aws key AKIAIOSFODNN7EXAMPLQ here', 'aws-access-key'],
    ['ghp_abcdefghijklmnopqrstuvwxyz0123456789', 'github-token'],
    ['github_pat_11ABCDEFG0abcdefghijkl_mnopqrstuvwxyz0123456789ABCDEFGHIJKLMNOPQRSTUV', 'github-token'],
    ['xoxb-123456789012-1234567890123-abcdefghijklmnopqrstuvwx', 'slack-token'],
    ['https://hooks.slack.com/services/T00000000/B00000000/XXXXXXXXXXXXXXXXXXXXXXXX', 'slack-webhook'],
    ['OPENAI_API_KEY is sk-proj-Ab3dEf6hIj9kLm2nOp5qRs8tUv1wXy4z', 'openai-key'],
    ['sk-Ab3dEf6hIj9kLm2nOp5qRs8tUv1wXy4zAb3dEf6hIj9kLm2n', 'openai-key'],
    ['//registry.example.com/:_authToken=npm_abcdefghijklmnopqrstuvwxyz0123456789', 'npm-token'],
    ['AIzaSyA1234567890abcdefghijklmnopqrstuv', 'google-api-key'],
    ['sk_live_abcdefghijklmnopqrstuvwx1234', 'stripe-key'],
    ['password = "Zx9!qT4#mK2$vL8@"', 'generic-assignment'],
    ['DB_PASSWORD=Zx9qT4mK2vL8wN3r', 'generic-assignment'],
    ['"client_secret": "a8F3kd92LmQx7ZpR4tYv"', 'generic-assignment'],
    ['api_key: 9fQ2xL7mK4pR8tZ3wN6v', 'generic-assignment'],
    // U05: a short or low-entropy value after a password key is still a password.
    ['password=hunter2', 'generic-assignment'],
    ['passwd: S3cret!x', 'generic-assignment'],
    ['DB_PASSWORD = "winter2026"', 'generic-assignment'],
    ['smtp_pwd: Tr0ub4dor', 'generic-assignment'],
    ['postgres://admin:S3cretPassw0rd@db.internal:5432/app', 'url-credentials'],
    ['remote is https://deploy:hunter2@git.example.com/team/repo.git', 'url-credentials'],
    // U33: token formats the first list missed (each was appended to a daily note unchallenged).
    [`glpat-${'Ab3dEf6hIj'.repeat(2)}`, 'gitlab-token'],
    [`hf_${'Ab3dEf6hIjKlMnOpQr'.repeat(2)}`, 'huggingface-token'],
    [`SG.${'Ab3dEf6hIjKlMnOpQrSt12'}.${'Ab3dEf6hIjKlMnOpQrSt12Ab3dEf6hIjKlMnOpQrSt1'}`, 'sendgrid-key'],
    [`bot 123456789:AA${'Hd9TcvCH1vGWJxfSeofSAs0K5PALDsaw'}0`, 'telegram-bot-token'],
    [`AGE-SECRET-KEY-1${'QZ3R5T7V9X'.repeat(5)}QZ3R5T7V`, 'age-secret-key'],
    [`eyJ${'hbGciOiJIUzI1NiJ9'}.eyJ${'zdWIiOiIxMjM0In0'}.${'dozjgNryP4J3jVmNHl0w5N'}`, 'jwt'],
    ['curl -H "Authorization: Bearer 8f3kd93KD0a9d8fjJ2kd9s8dfj3kdKd"', 'bearer-token'],
    [
      'DefaultEndpointsProtocol=https;AccountName=acme;AccountKey=Ab3dEf6hIj9kLm2nOp5qRs8tUv1wXy4z+/Ab3dEf==',
      'generic-assignment',
    ],
  ])('finds %s', (text, rule) => {
    expect(rules(text)).toContain(rule);
  });

  it.each([
    'we decided to use the password manager for team secrets',
    'token: see the vault',
    'password = <your password here>',
    'api_key = ${OPENAI_API_KEY}',
    'secret: changeme',
    'the token_count = 1234',
    'use sk-learn? no, scikit-learn',
    'AKIA is the prefix of AWS access keys',
    'password: correct-horse-battery-staple',
    // U05: prose and settings around passwords that are not one.
    'password: min-length-12',
    'Password: 12 characters minimum',
    'password = required',
    'passwd: ********',
    'password=$DB_PASSWORD',
    'pwd: /home/deploy',
    'password: see 1Password',
    'the password reset flow: users get an email',
    'token: abc123',
    'see https://example.com/token=abc',
    'postgres://user:password@localhost:5432/app',
    'DATABASE_URL=postgres://user:${DB_PASSWORD}@db:5432/app',
    'mysql://root:<pw>@127.0.0.1/app',
    'clone git@github.com:org/repo.git or ssh://git@host:22/repo',
    // U33: prose around the new formats.
    'send the header Authorization: Bearer <token>',
    'the API uses Bearer authentication-with-refresh-tokens',
    'GitLab tokens start with glpat- and are 20 characters long',
    'a JWT starts with eyJ because its header is JSON',
  ])('does not flag %s', (text) => {
    expect(rules(text)).toEqual([]);
  });

  it('reports the line and 1-based column, and never the secret', () => {
    const f = findSecretsInText('memory/a.md', 'one\ntwo\nkey: AKIAIOSFODNN7EXAMPLQ\n');
    expect(f).toEqual([{ path: 'memory/a.md', line: 3, column: 6, rule: 'aws-access-key', preview: 'AKIA…' }]);
    expect(JSON.stringify(f)).not.toContain('IOSFODNN7');
  });

  it('scans only the lines it is given, keeping their numbers', () => {
    const f = findSecrets('x.md', [{ line: 42, text: 'ghp_abcdefghijklmnopqrstuvwxyz0123456789' }]);
    expect(f.map((x) => x.line)).toEqual([42]);
  });

  it('skips lines with the allow marker', () => {
    expect(rules(`AKIAIOSFODNN7EXAMPLQ <!-- ${ALLOW_MARKER} -->`)).toEqual([]);
  });

  it('reports a token once, not also as a generic assignment', () => {
    expect(rules('GITHUB_TOKEN=ghp_abcdefghijklmnopqrstuvwxyz0123456789')).toEqual(['github-token']);
  });
});

describe('entropy', () => {
  it('measures bits per character', () => {
    expect(shannonEntropy('')).toBe(0);
    expect(shannonEntropy('aaaa')).toBe(0);
    expect(shannonEntropy('abcd')).toBe(2);
  });
  it('tells random-looking values from words', () => {
    expect(looksRandom('Zx9qT4mK2vL8wN3r')).toBe(true);
    expect(looksRandom('hunter2')).toBe(false);
    expect(looksRandom('correct-horse-battery')).toBe(false);
    expect(looksRandom('aaaaaaaaaaaa1')).toBe(false);
  });
});
