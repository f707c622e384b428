// In-memory IndexStorage fake for tests: records every call (to assert write order and avoided
// work) and can damage stored artifacts (flip a byte, truncate). Imports only core types.
import type { IndexStorage } from '../../src/core/ports.js';

/** One recorded call on {@link MemoryIndexStorage}. */
export interface StorageCall {
  readonly op: 'read' | 'write' | 'remove';
  readonly name: string;
}

/** {@link IndexStorage} over a Map; writes are "atomic" because they replace the whole value. */
export class MemoryIndexStorage implements IndexStorage {
  readonly location = 'memory://index';
  readonly files = new Map<string, Uint8Array>();
  readonly calls: StorageCall[] = [];
  /** When set, a write of this artifact name throws (to test failed saves). */
  failWrite: string | undefined;

  async read(name: string): Promise<Uint8Array | undefined> {
    this.calls.push({ op: 'read', name });
    const f = this.files.get(name);
    return f ? f.slice() : undefined;
  }

  async write(name: string, data: Uint8Array | string): Promise<void> {
    this.calls.push({ op: 'write', name });
    if (this.failWrite === name) throw new Error(`disk full writing ${name}`);
    this.files.set(name, typeof data === 'string' ? new TextEncoder().encode(data) : data.slice());
  }

  async remove(name: string): Promise<void> {
    this.calls.push({ op: 'remove', name });
    this.files.delete(name);
  }

  /** Names written, in order. */
  writes(): string[] {
    return this.calls.filter((c) => c.op === 'write').map((c) => c.name);
  }

  /** XOR one byte of a stored file (default: the middle one). */
  flipByte(name: string, offset?: number): void {
    const f = this.#get(name);
    const i = offset ?? Math.floor(f.length / 2);
    f[i] = f[i]! ^ 0xff;
  }

  /** Keep only the first `length` bytes of a stored file (default: half). */
  truncate(name: string, length?: number): void {
    const f = this.#get(name);
    this.files.set(name, f.slice(0, length ?? Math.floor(f.length / 2)));
  }

  /** Replace a stored file's content. */
  put(name: string, data: string | Uint8Array): void {
    this.files.set(name, typeof data === 'string' ? new TextEncoder().encode(data) : data.slice());
  }

  /** Stored text of a file, or undefined. */
  text(name: string): string | undefined {
    const f = this.files.get(name);
    return f ? new TextDecoder().decode(f) : undefined;
  }

  #get(name: string): Uint8Array {
    const f = this.files.get(name);
    if (!f) throw new Error(`no stored file ${name}`);
    return f;
  }
}
