// Where a rule reports an entry's id: at its front-matter `id:` (the key or the value), else across the
// file's first line when the id is the file slug. Shared by the id rules (duplicate-id, unlinkable-id).
// Imports only core.
import type { MemoryDoc } from '../../core/document.js';
import { LineIndex, range, type Range } from '../../core/position.js';

/**
 * The range of `doc`'s front-matter `id`: its key (`part: 'key'`, the value when the key has no range)
 * or its value; without an `id:` in the front-matter (the id is the slug), the whole first line (0-based).
 */
export function idRange(doc: MemoryDoc, part: 'key' | 'value'): Range {
  const node = doc.frontMatter?.data?.id !== undefined ? doc.frontMatter.nodes['/id'] : undefined;
  if (node) return part === 'key' ? (node.key ?? node.value) : node.value;
  return range(0, 0, 0, new LineIndex(doc.text).lineText(0).length);
}
