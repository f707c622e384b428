// Expecting a use case to fail with a MemoryError (src/core/errors.ts) of one code.
import { expect } from 'vitest';
import { isMemoryError } from '../../src/core/errors.js';

/**
 * Resolves to the error `p` rejects with, once it is known to be a MemoryError of `code`.
 * @throws when `p` resolves.
 */
export async function expectCode(p: Promise<unknown>, code: string): Promise<any> {
  try {
    await p;
  } catch (e) {
    expect(isMemoryError(e)).toBe(true);
    expect((e as { code: string }).code).toBe(code);
    return e;
  }
  throw new Error(`expected MemoryError ${code}, but it resolved`);
}
