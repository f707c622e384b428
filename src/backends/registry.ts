// The backend registry: a module-level map of backends by `type`, the four built-ins registered at
// load, and resolution from host settings with a fallback to the default (`gitmem`).
// deps: backends only (built-ins).
import { FileMemoryBackend } from './file-backend.js';
import { GitmemMemoryBackend } from './gitmem-backend.js';
import { QmdMemoryBackend } from './qmd-backend.js';
import { ReadOnlyMemoryBackend } from './readonly-backend.js';
import {
  DEFAULT_MEMORY_BACKEND,
  MemoryBackendError,
  type MemoryBackend,
  type MemoryBackendCapabilities,
  type MemoryBackendSettings,
} from './types.js';

/** The built-in backend types, in registration order. */
export const BUILTIN_MEMORY_BACKENDS: readonly string[] = ['gitmem', 'file', 'readonly', 'qmd'];

const registry = new Map<string, MemoryBackend>();

function builtin(type: string): MemoryBackend {
  switch (type) {
    case 'gitmem':
      return new GitmemMemoryBackend();
    case 'file':
      return new FileMemoryBackend();
    case 'readonly':
      return new ReadOnlyMemoryBackend();
    default:
      return new QmdMemoryBackend();
  }
}

for (const t of BUILTIN_MEMORY_BACKENDS) registry.set(t, builtin(t));

/**
 * Register `backend` under `backend.type`, replacing any backend registered with that type (a
 * built-in included: a host may override `file`).
 * @throws MemoryBackendError `UNSUPPORTED` when the object lacks `type`, `name`, `capabilities`,
 *   `read` or `write`.
 */
export function registerMemoryBackend(backend: MemoryBackend): void {
  const b = backend as Partial<MemoryBackend> | undefined;
  if (
    !b ||
    typeof b.type !== 'string' ||
    !b.type ||
    typeof b.name !== 'string' ||
    typeof b.read !== 'function' ||
    typeof b.write !== 'function' ||
    !b.capabilities
  ) {
    throw new MemoryBackendError(
      'UNSUPPORTED',
      'not a memory backend: type, name, capabilities, read and write are required',
      String(b?.type ?? 'unknown'),
    );
  }
  registry.set(b.type, backend);
}

/** @returns the backend registered as `type`, or undefined when there is none. */
export function getMemoryBackend(type: string): MemoryBackend | undefined {
  return registry.get(type);
}

/** @returns every registered type, built-ins first, then in registration order. */
export function listMemoryBackendTypes(): string[] {
  return [...registry.keys()];
}

/**
 * Remove a registered backend. A built-in type is restored to its original implementation instead
 * (the default must always resolve). @returns true when something was removed or restored.
 */
export function unregisterMemoryBackend(type: string): boolean {
  if (BUILTIN_MEMORY_BACKENDS.includes(type)) {
    registry.set(type, builtin(type));
    return true;
  }
  return registry.delete(type);
}

/**
 * The backend named by `settings.memoryBackendType`; an unknown, empty or missing type falls back to
 * {@link DEFAULT_MEMORY_BACKEND} (`gitmem`). Never throws.
 */
export function resolveMemoryBackend(settings?: MemoryBackendSettings | null): MemoryBackend {
  const t = settings?.memoryBackendType;
  const hit = typeof t === 'string' && t ? registry.get(t) : undefined;
  return hit ?? registry.get(DEFAULT_MEMORY_BACKEND) ?? builtin(DEFAULT_MEMORY_BACKEND);
}

/** @returns the capabilities of the backend {@link resolveMemoryBackend} picks. */
export function getMemoryBackendCapabilities(settings?: MemoryBackendSettings | null): MemoryBackendCapabilities {
  return resolveMemoryBackend(settings).capabilities;
}
