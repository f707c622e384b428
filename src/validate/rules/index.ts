// Rule registry: every workspace check that validate.ts runs, remark-lint style. A rule's id is the
// diagnostic code it emits (or the code family, `memory.schema`, for the schema rule).
// Imports only core and the rule files; never parse/.
import type { Diagnostic, DiagnosticCode, Severity } from '../../core/diagnostics.js';
import type { MemoryDoc } from '../../core/document.js';
import type { RelPath } from '../../core/paths.js';
import type { MemoryWorkspace } from '../../core/workspace.js';
import { dailyDate } from './daily-date.js';
import { duplicateId } from './duplicate-id.js';
import { unlinkableId } from './unlinkable-id.js';
import { frontMatterSchema } from './front-matter-schema.js';
import { secrets } from './secrets.js';
import { injection } from './injection.js';
import { conflictMarkers } from './conflict-markers.js';
import { unresolvedLink } from './unresolved-link.js';
import { supersession } from './supersession.js';
import { expiry } from './expiry.js';
import { loadBudget } from './load-budget.js';
import { unknownTag } from './unknown-tag.js';
import { sameNameForms } from './same-name-forms.js';
import { verifiedDate } from './verified-date.js';

/** What a rule may look at besides the document it checks. */
export interface RuleContext {
  /** The whole workspace (links and ids resolve against it). */
  readonly workspace: MemoryWorkspace;
  /**
   * Does a non-memory file exist at `path`? Lets relative links to code or other files resolve.
   * When absent, links to anything but `.md` files are not checked (validation does no I/O).
   */
  readonly exists?: (path: RelPath) => boolean;
  /** Today (YYYY-MM-DD) for expiry checks (`valid_until`, `review_after`); absent: not checked. */
  readonly today?: string;
  /** Always-loaded budget (config `load`); absent: the defaults. */
  readonly load?: { readonly maxLines: number; readonly maxBytes: number };
}

export interface Rule {
  /** Diagnostic code this rule emits, or the code family for a rule that emits several. */
  readonly id: string;
  /** Every code the rule can emit (for `severities` overrides and docs). */
  readonly codes: readonly DiagnosticCode[];
  /** Severity of the rule's main code; diagnostics carry their own severity. */
  readonly defaultSeverity: Severity;
  /** One paragraph for `gitmem validate --help` and the README. */
  readonly docs: string;
  /** @returns the findings for `doc` (never throws on user content). */
  check(doc: MemoryDoc, ctx: RuleContext): Diagnostic[];
}

/** Every rule, in the order they run. */
export const RULES: readonly Rule[] = [
  frontMatterSchema,
  duplicateId,
  unlinkableId,
  unresolvedLink,
  dailyDate,
  secrets,
  injection,
  conflictMarkers,
  supersession,
  expiry,
  loadBudget,
  unknownTag,
  sameNameForms,
  verifiedDate,
];

/** @returns the rule with `id`, or undefined when there is none. */
export function tryGetRule(id: string): Rule | undefined {
  return RULES.find((r) => r.id === id);
}
