// The text a chunk is embedded as (its heading path and title give the model context, cut to what
// the model reads) and the embedding key that names its vector: sha256 of that text. The one owner of
// both, for the chunk table (index-manager.ts), the vector half (semantic.ts) and remember's
// near-duplicate check; clipText also bounds a query. deps: core (and the ChunkRecord type).
import { sha256 } from '../../core/hash.js';
import { cutUnits } from '../../core/words.js';
import type { ChunkRecord } from '../chunks/index-manager.js';

/**
 * Most characters handed to the embedder. The model reads 256 word-pieces (~1,000 characters of
 * English), so more is wasted work — and a huge input crashed the native runtime's tokenizer path.
 */
const MAX_EMBED_CHARS = 2000;

/** `text` cut to at most `max` UTF-16 units without splitting a surrogate pair. */
export function clipText(text: string, max = MAX_EMBED_CHARS): string {
  return cutUnits(text, max);
}

/** The text embedded for a chunk: its heading path (and entry title) give the model context. */
export function embedText(c: Pick<ChunkRecord, 'text' | 'headingPath' | 'title'>): string {
  const head = clipText(
    [...(c.title ? [c.title] : []), ...c.headingPath.filter((h) => h !== c.title)].join(' › '),
    300,
  );
  return clipText(head ? `${head}\n${c.text}` : c.text);
}

/** Cache key of a chunk's embedding: sha256 of {@link embedText}. */
export function embedKey(c: Pick<ChunkRecord, 'text' | 'headingPath' | 'title'>): string {
  return sha256(embedText(c));
}
