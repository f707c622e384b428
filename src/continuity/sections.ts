// CURRENT_STATE.md vocabulary (docs/DESIGN.md §5): the fixed sections, field names, placeholder text, token
// estimate and timestamps. Pure; imports nothing (no node: modules, no npm).

/** Section headings in canonical order (`## <name>`). */
export const STATE_SECTIONS = [
  'Objective',
  'Current Step',
  'Key Decisions',
  'Next Action',
  'Blockers',
  'Unsurfaced Results',
] as const;
export type StateSectionName = (typeof STATE_SECTIONS)[number];

/** The title heading (`# Current State`). */
export const STATE_TITLE = 'Current State';

/** Field names used by the API, CLI flags and MCP tool arguments. */
export type StateField = 'objective' | 'step' | 'decisions' | 'next' | 'blockers' | 'results';
export type ScalarField = 'objective' | 'step' | 'next';
export type ListField = 'decisions' | 'blockers' | 'results';

export const FIELD_OF: Readonly<Record<StateSectionName, StateField>> = {
  Objective: 'objective',
  'Current Step': 'step',
  'Key Decisions': 'decisions',
  'Next Action': 'next',
  Blockers: 'blockers',
  'Unsurfaced Results': 'results',
};

export const LIST_FIELDS: readonly ListField[] = ['decisions', 'blockers', 'results'];
export const SCALAR_FIELDS: readonly ScalarField[] = ['objective', 'step', 'next'];

export const isListField = (f: StateField): f is ListField => (LIST_FIELDS as readonly string[]).includes(f);

/** The working state as values: placeholders already removed ('' / [] mean "nothing"). */
export interface StateFields {
  readonly objective: string;
  readonly step: string;
  readonly decisions: readonly string[];
  readonly next: string;
  readonly blockers: readonly string[];
  readonly results: readonly string[];
}

export const EMPTY_FIELDS: StateFields = {
  objective: '',
  step: '',
  decisions: [],
  next: '',
  blockers: [],
  results: [],
};

/** @returns the canonical section name for a heading text (case and spacing insensitive), or undefined. */
export function canonicalSection(heading: string): StateSectionName | undefined {
  const key = heading
    .replace(/[\s_]+/g, ' ')
    .trim()
    .toLowerCase();
  return STATE_SECTIONS.find((s) => s.toLowerCase() === key);
}

/**
 * What kind of "nothing" a value is: `none` for `None`, `idle`, `n/a`, `-` and the like; `template`
 * for prompt text left from a template (`<objective>`, `[describe the task]`, `_What is the goal?_`,
 * `… here`). @returns undefined for real content.
 */
export function placeholderKind(value: string): 'none' | 'template' | undefined {
  const raw = value.replace(/<!--[\s\S]*?-->/g, ' ').trim();
  if (raw === '') return value.trim() === '' ? 'none' : 'template';
  if (/^<[^<>]*>$/.test(raw) || /^\[[^\]]*\]$/.test(raw) || /^\{\{[^}]*\}\}$/.test(raw)) return 'template';
  // Emphasis, code marks, brackets and a trailing full stop do not change the meaning of "None".
  const bare = raw
    .replace(/^[*_`(]+|[*_`)]+$/g, '')
    .replace(/\.$/, '')
    .trim()
    .toLowerCase();
  if (
    /^(?:none|none yet|nothing|nothing yet|idle|n\/?a|na|nil|null|empty|not set|unset|tbd|todo|\.\.\.|…|-+|—|–|_+|\*+|no (?:active )?(?:task|objective|work|step|action|blockers?|results?|decisions?)(?: yet)?)$/.test(
      bare,
    )
  ) {
    return 'none';
  }
  if (
    /^[*_][^*_]+[*_]$/.test(raw) &&
    /\?$|^[*_]\s*(?:describe|what|which|e\.g\.|example|list|add|enter|write)\b/i.test(raw.replace(/[*_]+$/, ''))
  ) {
    return 'template';
  }
  if (/^(?:describe|enter|write|add|fill in|replace|list)\b[^\n]*\bhere\.?$/i.test(raw)) return 'template';
  return undefined;
}

/** @returns true when `value` carries no content (see {@link placeholderKind}). */
export function isPlaceholder(value: string): boolean {
  return placeholderKind(value) !== undefined;
}

/**
 * A cheap, tokenizer-free token estimate (≈ 4 characters per token for English prose, never less than
 * the word count): what the snapshot budget is measured in.
 */
export function estimateTokens(text: string): number {
  if (!text) return 0;
  const words = text.split(/\s+/).filter(Boolean).length;
  return Math.max(words, Math.ceil(text.length / 4));
}

const ISO_WITH_OFFSET = /^(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2})(?::(\d{2})(?:\.\d+)?)?(Z|[+-]\d{2}:?\d{2})$/;

/**
 * Parse an ISO-8601 date-time that carries an offset (`Z` or `±hh:mm`).
 * @returns undefined when it lacks an offset or is not a real date.
 */
export function parseTimestamp(value: string): Date | undefined {
  const m = ISO_WITH_OFFSET.exec(value.trim());
  if (!m) return undefined;
  const [, y, mo, d, h, mi, s] = m;
  const month = Number(mo);
  const day = Number(d);
  if (month < 1 || month > 12 || day < 1 || day > 31 || Number(h) > 23 || Number(mi) > 59 || Number(s ?? 0) > 59)
    return undefined;
  const probe = new Date(Date.UTC(Number(y), month - 1, day));
  if (probe.getUTCMonth() !== month - 1) return undefined;
  const t = Date.parse(value.trim());
  return Number.isNaN(t) ? undefined : new Date(t);
}

/**
 * Format `date` as ISO-8601 in local time with its offset (`2026-11-27T16:40:00+01:00`), seconds
 * precision. `offsetMinutes` is minutes east of UTC (default: the host's offset at that date).
 */
export function formatTimestamp(date: Date, offsetMinutes = -date.getTimezoneOffset()): string {
  const local = new Date(date.getTime() + offsetMinutes * 60_000);
  const base = local.toISOString().slice(0, 19);
  const sign = offsetMinutes < 0 ? '-' : '+';
  const abs = Math.abs(offsetMinutes);
  return `${base}${sign}${String(Math.floor(abs / 60)).padStart(2, '0')}:${String(abs % 60).padStart(2, '0')}`;
}

/** Local calendar date `YYYY-MM-DD` and time `HH:MM` of `date` at `offsetMinutes` east of UTC. */
export function localDateTime(date: Date, offsetMinutes = -date.getTimezoneOffset()): { date: string; time: string } {
  const iso = new Date(date.getTime() + offsetMinutes * 60_000).toISOString();
  return { date: iso.slice(0, 10), time: iso.slice(11, 16) };
}

/** Normalise an item for duplicate checks: case, spacing, trailing punctuation, markdown marks. */
export function itemKey(item: string): string {
  return item
    .toLowerCase()
    .replace(/[`*_]/g, '')
    .replace(/\s+/g, ' ')
    .replace(/[.;,!\s]+$/, '')
    .trim();
}
