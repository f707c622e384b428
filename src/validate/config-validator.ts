// The config schema's validator compiled ahead of time. This source says "none": tests and other
// unbundled runs compile schemas/config.schema.json at run time (validate/schema.ts). The build
// (scripts/build.mjs, via scripts/precompile-validators.mjs) replaces this module with ajv's
// standalone code for the same schema and options, so a one-shot CLI call does not spend ~130 ms
// generating it on every start.
import type { ValidateFunction } from 'ajv';

/** The precompiled config validator, or undefined when running unbundled. */
export const precompiledConfigValidator: ValidateFunction | undefined = undefined;
