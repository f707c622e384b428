// BERT uncased WordPiece tokenizer built from a vocab.txt (one token per line, id = line number),
// matching HF tokenizers' BertNormalizer + BertPreTokenizer + WordPiece. Pure: no I/O, no npm, no node:.

/** Options of {@link WordPieceTokenizer}. */
export interface WordPieceOptions {
  /** Words longer than this many characters become [UNK] (HF default 100). */
  readonly maxInputCharsPerWord?: number;
  /** Continuation prefix of non-initial pieces. Default `##`. */
  readonly continuingSubwordPrefix?: string;
}

/** Output of {@link WordPieceTokenizer.encode}: ids including [CLS] … [SEP], never padded. */
export interface WordPieceEncoding {
  /** Token ids, `[CLS]` first and `[SEP]` last; length ≤ `maxLength`. */
  readonly ids: number[];
  /** True when word-pieces were dropped to fit `maxLength`. */
  readonly truncated: boolean;
}

/** Default sequence length of all-MiniLM-L6-v2 (sentence-transformers max_seq_length), specials included. */
export const DEFAULT_MAX_LENGTH = 256;

const SPECIALS = ['[PAD]', '[UNK]', '[CLS]', '[SEP]', '[MASK]'] as const;
/** Special tokens written literally in the input are matched on the raw text, as HF added tokens are. */
const SPECIAL_SPLIT = /(\[(?:PAD|UNK|CLS|SEP|MASK)\])/;
const CONTROL = /\p{C}/u;
const WHITESPACE = /\p{White_Space}/u;
const PUNCT = /\p{P}/u;
const MARK_NONSPACING = /\p{Mn}/gu;
/** Cache bound: distinct words whose pieces are remembered (a memory file has a few thousand). */
const CACHE_LIMIT = 50_000;

function isCjk(cp: number): boolean {
  return (
    (cp >= 0x4e00 && cp <= 0x9fff) ||
    (cp >= 0x3400 && cp <= 0x4dbf) ||
    (cp >= 0x20000 && cp <= 0x2a6df) ||
    (cp >= 0x2a700 && cp <= 0x2b73f) ||
    (cp >= 0x2b740 && cp <= 0x2b81f) ||
    (cp >= 0x2b920 && cp <= 0x2ceaf) ||
    (cp >= 0xf900 && cp <= 0xfaff) ||
    (cp >= 0x2f800 && cp <= 0x2fa1f)
  );
}

/** ASCII punctuation in Rust's sense (`$+<=>^`|~` are symbols in Unicode but split by BERT). */
function isAsciiPunct(cp: number): boolean {
  return (cp >= 33 && cp <= 47) || (cp >= 58 && cp <= 64) || (cp >= 91 && cp <= 96) || (cp >= 123 && cp <= 126);
}

/**
 * BertNormalizer (clean_text, handle_chinese_chars, strip_accents, lowercase): drop NUL, U+FFFD and
 * control characters, map whitespace to a space, pad CJK ideographs with spaces, NFD and drop
 * non-spacing marks, lowercase.
 */
export function bertNormalize(text: string): string {
  let out = '';
  for (const ch of text) {
    const cp = ch.codePointAt(0)!;
    if (cp < 128) {
      // ASCII fast path. As in HF's clean_text, controls are dropped BEFORE whitespace is mapped, so
      // \v and \f (controls that are also White_Space) disappear rather than become spaces.
      if (cp === 9 || cp === 10 || cp === 13 || cp === 32) out += ' ';
      else if (cp >= 32 && cp !== 127) out += ch;
      continue;
    }
    if (cp === 0xfffd || CONTROL.test(ch)) continue;
    if (WHITESPACE.test(ch)) out += ' ';
    else out += isCjk(cp) ? ` ${ch} ` : ch;
  }
  return out.normalize('NFD').replace(MARK_NONSPACING, '').toLowerCase();
}

/**
 * BertPreTokenizer over normalised text: split on whitespace (dropped) and on every punctuation
 * character (kept as its own word).
 */
export function bertPreTokenize(normalized: string): string[] {
  const words: string[] = [];
  let cur = '';
  for (const ch of normalized) {
    if (WHITESPACE.test(ch)) {
      if (cur) words.push(cur);
      cur = '';
    } else if (isAsciiPunct(ch.codePointAt(0)!) || PUNCT.test(ch)) {
      if (cur) words.push(cur);
      words.push(ch);
      cur = '';
    } else cur += ch;
  }
  if (cur) words.push(cur);
  return words;
}

/** Split `text` into pieces of about 4 KB, cutting only after whitespace (never inside a word). */
function* slices(text: string): Generator<string> {
  const SIZE = 4096;
  let start = 0;
  while (text.length - start > SIZE) {
    let cut = start + SIZE;
    while (cut < text.length && !/\s/.test(text[cut - 1]!)) cut++;
    yield text.slice(start, cut);
    start = cut;
  }
  if (start < text.length) yield text.slice(start);
}

/**
 * A WordPiece tokenizer over a BERT uncased vocabulary. Construct once per model and reuse: it keeps
 * a bounded cache of word → pieces.
 */
export class WordPieceTokenizer {
  readonly #vocab: Map<string, number>;
  readonly #maxChars: number;
  readonly #prefix: string;
  readonly #cache = new Map<string, readonly number[]>();
  /** Id of `[CLS]`. */
  readonly clsId: number;
  /** Id of `[SEP]`. */
  readonly sepId: number;
  /** Id of `[UNK]`. */
  readonly unkId: number;
  /** Id of `[PAD]`. */
  readonly padId: number;

  /**
   * @param vocab token → id.
   * @throws Error when the vocabulary lacks `[CLS]`, `[SEP]`, `[UNK]` or `[PAD]` (the caller wraps
   *   this into its own error type).
   */
  constructor(vocab: ReadonlyMap<string, number>, options: WordPieceOptions = {}) {
    this.#vocab = new Map(vocab);
    this.#maxChars = options.maxInputCharsPerWord ?? 100;
    this.#prefix = options.continuingSubwordPrefix ?? '##';
    const need = (t: string): number => {
      const id = this.#vocab.get(t);
      if (id === undefined) throw new Error(`vocabulary has no ${t} token`);
      return id;
    };
    this.clsId = need('[CLS]');
    this.sepId = need('[SEP]');
    this.unkId = need('[UNK]');
    this.padId = need('[PAD]');
  }

  /**
   * Build from the text of a `vocab.txt` (one token per line; the id is the 0-based line number).
   * @throws Error as the constructor.
   */
  static fromVocabText(text: string, options?: WordPieceOptions): WordPieceTokenizer {
    const vocab = new Map<string, number>();
    const lines = text.replace(/^\uFEFF/, '').split(/\r?\n/);
    // A trailing newline yields one empty last line, which is not a token.
    if (lines.length && lines[lines.length - 1] === '') lines.pop();
    lines.forEach((tok, i) => {
      if (!vocab.has(tok)) vocab.set(tok, i);
    });
    return new WordPieceTokenizer(vocab, options);
  }

  /** Number of entries in the vocabulary. */
  get vocabSize(): number {
    return this.#vocab.size;
  }

  /** The id of `token`, or undefined when it is not in the vocabulary. */
  tokenToId(token: string): number | undefined {
    return this.#vocab.get(token);
  }

  /** Word-piece ids of one pre-tokenised word (`[UNK]` alone when it cannot be split). */
  #word(word: string): readonly number[] {
    const hit = this.#cache.get(word);
    if (hit) return hit;
    const chars = Array.from(word);
    let ids: number[];
    if (chars.length > this.#maxChars) ids = [this.unkId];
    else {
      ids = [];
      let start = 0;
      while (start < chars.length) {
        let end = chars.length;
        let found: number | undefined;
        while (start < end) {
          const sub = (start > 0 ? this.#prefix : '') + chars.slice(start, end).join('');
          found = this.#vocab.get(sub);
          if (found !== undefined) break;
          end--;
        }
        if (found === undefined) {
          ids = [this.unkId];
          break;
        }
        ids.push(found);
        start = end;
      }
    }
    if (this.#cache.size >= CACHE_LIMIT) this.#cache.clear();
    this.#cache.set(word, ids);
    return ids;
  }

  /**
   * Word-piece ids of `text` without [CLS]/[SEP] and without truncation. Literal special tokens in the
   * text (`[SEP]` …) map to their ids, as HF's added-token splitting does.
   * @param limit stop once more than this many ids are collected (the result may exceed it by the
   *   pieces of one word); default: no limit. Bounds the work on huge texts that will be truncated.
   */
  tokenizeToIds(text: string, limit = Infinity): number[] {
    const out: number[] = [];
    for (const part of text.split(SPECIAL_SPLIT)) {
      if (out.length > limit) break;
      if (!part) continue;
      if ((SPECIALS as readonly string[]).includes(part)) {
        const id = this.#vocab.get(part);
        if (id !== undefined) {
          out.push(id);
          continue;
        }
      }
      // Long parts are cut into slices at whitespace so a huge text is not normalised in full.
      for (const slice of slices(part)) {
        if (out.length > limit) break;
        for (const w of bertPreTokenize(bertNormalize(slice))) for (const id of this.#word(w)) out.push(id);
      }
    }
    return out;
  }

  /**
   * Encode one text as `[CLS] pieces… [SEP]`, keeping at most `maxLength` ids in all (the first
   * `maxLength - 2` word-pieces). Never throws on user text.
   * @param maxLength total length including the two specials; default {@link DEFAULT_MAX_LENGTH}, minimum 2.
   */
  encode(text: string, maxLength: number = DEFAULT_MAX_LENGTH): WordPieceEncoding {
    const room = Math.max(0, Math.floor(maxLength) - 2);
    const pieces = this.tokenizeToIds(text, room);
    const truncated = pieces.length > room;
    const kept = truncated ? pieces.slice(0, room) : pieces;
    return { ids: [this.clsId, ...kept, this.sepId], truncated };
  }
}
