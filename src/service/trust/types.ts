// The trust classes a recall result carries (docs/trust.md): where its lines come from (provenance),
// whether a person has reviewed them, and the labels other checks attach (cited code, conflicts,
// injected instructions, secrets). Types only. deps: none.

/** The commit that last changed a result's lines, or `uncommitted` when some of them are not in HEAD. */
export type Provenance =
  | {
      readonly commit: string;
      /** The commit id's first 7 characters. */
      readonly short: string;
      readonly author: string;
      /** ISO-8601 (UTC) author date. */
      readonly date: string;
      /** Who wrote the file's current text outside a commit, from the writer record (service/review/writers.ts). */
      readonly writer: 'person' | 'agent';
    }
  | { readonly commit: 'uncommitted'; readonly writer: 'person' | 'agent' };

/**
 * `reviewed`: committed or edited by a person, or approved (`gitmem review --approve`, the editor's
 * review view); `unreviewed`: written by an agent through gitmem and not approved; `incoming`: arrived
 * through `gitmem sync` from another author and not approved here.
 */
export type ReviewState = 'reviewed' | 'unreviewed' | 'incoming';

/**
 * The classes the injection policy (service/trust/inject-policy.ts, config `recall.inject`) decides on.
 * The review states, plus the labels of the other checks: `injection` (lines that address the
 * assistant), `stale` (cited code gone or changed), `conflict`, `secret` (masked text).
 */
export type TrustClass = ReviewState | 'injection' | 'stale' | 'conflict' | 'secret';

/**
 * One label beside a result. `text` is what the context block shows (compact); `lines`, when given,
 * are the file lines (1-based) the label is about (an injection flag on one line withholds that line
 * only); without `lines` the label is about the whole result.
 */
export interface TrustLabel {
  readonly class: TrustClass;
  readonly text: string;
  readonly lines?: readonly number[];
}

/** Who a recall answers: a person (CLI), an agent that asked (MCP, the editor's agent requests), or a block injected without asking (`hook prompt`, `gitmem context`, MCP `budget`). */
export type RecallAudience = 'person' | 'agent' | 'injected';
