// The build swaps in ajv's standalone code for the config schema (scripts/precompile-validators.mjs);
// this checks that the precompiled validator answers exactly as the run-time compile does.
import { Ajv, type ValidateFunction } from 'ajv';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import configSchema from '../../../schemas/config.schema.json' with { type: 'json' };
import { DEFAULT_CONFIG } from '../../../src/core/config.js';
import ajvOptions from '../../../src/validate/ajv-options.json' with { type: 'json' };
// @ts-expect-error: a plain .mjs build script without type declarations
import { configValidatorSource } from '../../../scripts/precompile-validators.mjs';

let dir: string;
let precompiled: ValidateFunction;
let runtime: ValidateFunction;

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'gitmem-precompiled-'));
  const file = join(dir, 'config-validator.mjs');
  // The standalone code require()s ajv's small runtime helpers; resolve them from the project.
  const req = `import { createRequire } from 'node:module'; const require = createRequire(${JSON.stringify(resolve('package.json'))});\n`;
  writeFileSync(file, req + (configValidatorSource as () => string)());
  precompiled = ((await import(pathToFileURL(file).href)) as { precompiledConfigValidator: ValidateFunction })
    .precompiledConfigValidator;
  runtime = new Ajv({ ...ajvOptions, logger: false }).compile(configSchema);
});

afterAll(() => rmSync(dir, { recursive: true, force: true }));

const CASES: unknown[] = [
  DEFAULT_CONFIG,
  {},
  { version: 1, layout: 'openclaw', recall: { limit: 50 } },
  { recall: { limit: 500 } },
  { recal: { limit: 5 }, recall: { limt: 5 }, kinds: { notes: ['*.md'] } },
  { version: 2, layout: 'nope', ignore: 'archive/**', chunking: { maxLines: -1 } },
  { model: { enabled: 'yes' } },
  [],
  'not an object',
];

describe('precompiled config validator', () => {
  test.each(CASES.map((c) => [JSON.stringify(c).slice(0, 60), c]))(
    'same verdict and errors as the run-time compile: %s',
    (_label, input) => {
      const a = precompiled(input);
      const b = runtime(input);
      expect(a).toBe(b);
      expect(precompiled.errors ?? null).toEqual(runtime.errors ?? null);
    },
  );

  test('rejects what the schema rejects', () => {
    expect(precompiled({ recall: { limit: 500 } })).toBe(false);
    expect(precompiled(DEFAULT_CONFIG)).toBe(true);
  });
});
