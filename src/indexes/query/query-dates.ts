// Dates a query talks about: ISO dates, "May 2023", "8 May 2023", "May 8, 2023", a year, a month
// name, and relative dates ("yesterday", "last week", "3 days ago", "last Monday") resolved against a
// reference day. Pure: no imports.

/** An inclusive range of ISO days (YYYY-MM-DD). */
export interface DayRange {
  readonly from: string;
  readonly to: string;
  /** The words of the query that named it. */
  readonly text: string;
}

const MONTHS = [
  'january',
  'february',
  'march',
  'april',
  'may',
  'june',
  'july',
  'august',
  'september',
  'october',
  'november',
  'december',
];
const MONTH_RE =
  '(jan(?:uary)?|feb(?:ruary)?|mar(?:ch)?|apr(?:il)?|may|june?|july?|aug(?:ust)?|sep(?:t(?:ember)?)?|oct(?:ober)?|nov(?:ember)?|dec(?:ember)?)';
const WEEKDAYS = ['sunday', 'monday', 'tuesday', 'wednesday', 'thursday', 'friday', 'saturday'];
const NUMBER_WORDS: Record<string, number> = {
  a: 1,
  an: 1,
  one: 1,
  two: 2,
  three: 3,
  four: 4,
  five: 5,
  six: 6,
  seven: 7,
  eight: 8,
  nine: 9,
  ten: 10,
  couple: 2,
  few: 3,
};

const DAY = 86_400_000;
const iso = (t: number) => new Date(t).toISOString().slice(0, 10);
const utc = (y: number, m: number, d: number) => Date.UTC(y, m, d);
const monthOf = (s: string) => MONTHS.findIndex((m) => m.startsWith(s.toLowerCase().slice(0, 3)));
const lastDay = (y: number, m: number) => new Date(utc(y, m + 1, 0)).getUTCDate();

function valid(y: number, m: number, d: number): boolean {
  return y >= 1900 && y <= 2200 && m >= 0 && m <= 11 && d >= 1 && d <= lastDay(y, m);
}

/** Parse a reference day (YYYY-MM-DD or an ISO date-time); undefined when not a date. */
export function parseDay(s: string | undefined): number | undefined {
  if (!s) return undefined;
  const m = /^(\d{4})-(\d{2})-(\d{2})/.exec(s.trim());
  if (!m) return undefined;
  const [y, mo, d] = [Number(m[1]), Number(m[2]) - 1, Number(m[3])];
  return valid(y, mo, d) ? utc(y, mo, d) : undefined;
}

/**
 * Day ranges named in `query`, resolved against `now` (a UTC midnight, ms).
 * A month without a year is the latest such month not after `now`.
 * @returns ranges in the order found (empty when the query names no date).
 */
export function queryDates(query: string, now: number): DayRange[] {
  const q = query.toLowerCase();
  const out: DayRange[] = [];
  const taken: [number, number][] = [];
  const free = (a: number, b: number) => taken.every(([x, y]) => b <= x || a >= y);
  const add = (from: number, to: number, at: number, len: number) => {
    if (!free(at, at + len)) return;
    taken.push([at, at + len]);
    out.push({ from: iso(Math.min(from, to)), to: iso(Math.max(from, to)), text: query.slice(at, at + len) });
  };
  const nowDate = new Date(now);
  const ny = nowDate.getUTCFullYear();
  const nm = nowDate.getUTCMonth();

  for (const m of q.matchAll(/\b(\d{4})-(\d{2})(?:-(\d{2}))?\b/g)) {
    const [y, mo] = [Number(m[1]), Number(m[2]) - 1];
    if (m[3]) {
      const d = Number(m[3]);
      if (valid(y, mo, d)) add(utc(y, mo, d), utc(y, mo, d), m.index, m[0].length);
    } else if (valid(y, mo, 1)) add(utc(y, mo, 1), utc(y, mo, lastDay(y, mo)), m.index, m[0].length);
  }
  // 8 May 2023 / 8th of May, 2023 / May 8, 2023 / May 8th
  for (const m of q.matchAll(
    new RegExp(`\\b(\\d{1,2})(?:st|nd|rd|th)?\\s+(?:of\\s+)?${MONTH_RE}\\b,?(?:\\s+(\\d{4}))?`, 'g'),
  )) {
    const mo = monthOf(m[2]!);
    const y = m[3] ? Number(m[3]) : mo <= nm ? ny : ny - 1;
    const d = Number(m[1]);
    if (valid(y, mo, d)) add(utc(y, mo, d), utc(y, mo, d), m.index, m[0].length);
  }
  for (const m of q.matchAll(new RegExp(`\\b${MONTH_RE}\\s+(\\d{1,2})(?:st|nd|rd|th)?\\b(?:,?\\s+(\\d{4}))?`, 'g'))) {
    const mo = monthOf(m[1]!);
    const y = m[3] ? Number(m[3]) : mo <= nm ? ny : ny - 1;
    const d = Number(m[2]);
    if (valid(y, mo, d)) add(utc(y, mo, d), utc(y, mo, d), m.index, m[0].length);
  }
  // May 2023 / in May / during May
  for (const m of q.matchAll(new RegExp(`\\b${MONTH_RE}\\b(?:,?\\s+(\\d{4}))?`, 'g'))) {
    const word = m[1]!;
    // "may" alone is usually the verb: only as a month with a year or after in/during/since/early/late.
    const before = q.slice(Math.max(0, m.index - 8), m.index);
    if (
      !m[2] &&
      (word === 'may' || word === 'mar') &&
      !/\b(?:in|during|since|early|late|mid|of|last|this)\s+$/.test(before)
    )
      continue;
    const mo = monthOf(word);
    const y = m[2] ? Number(m[2]) : mo <= nm ? ny : ny - 1;
    if (valid(y, mo, 1)) add(utc(y, mo, 1), utc(y, mo, lastDay(y, mo)), m.index, m[0].length);
  }
  for (const m of q.matchAll(/\b(?:in|during|since|of|from)\s+((?:19|20)\d{2})\b/g)) {
    const y = Number(m[1]);
    add(utc(y, 0, 1), utc(y, 11, 31), m.index, m[0].length);
  }
  const rel: [RegExp, (m: RegExpMatchArray) => [number, number] | undefined][] = [
    [/\btoday\b/g, () => [now, now]],
    [/\byesterday\b/g, () => [now - DAY, now - DAY]],
    [/\b(?:the\s+)?day before yesterday\b/g, () => [now - 2 * DAY, now - 2 * DAY]],
    [
      /\blast\s+weekend\b/g,
      () => {
        const dow = nowDate.getUTCDay();
        const sat = now - ((dow + 1) % 7 || 7) * DAY;
        return [sat, sat + DAY];
      },
    ],
    [/\b(this|last|past)\s+week\b/g, (m) => (m[1] === 'this' ? [now - 6 * DAY, now] : [now - 13 * DAY, now - DAY])],
    [
      /\b(this|last|past)\s+month\b/g,
      (m) =>
        m[1] === 'this'
          ? [utc(ny, nm, 1), now]
          : m[1] === 'past'
            ? [now - 30 * DAY, now]
            : [utc(ny, nm - 1, 1), utc(ny, nm, 0)],
    ],
    [
      /\b(this|last|past)\s+year\b/g,
      (m) =>
        m[1] === 'this'
          ? [utc(ny, 0, 1), now]
          : m[1] === 'past'
            ? [now - 365 * DAY, now]
            : [utc(ny - 1, 0, 1), utc(ny - 1, 11, 31)],
    ],
    [
      /\b(\d{1,3}|a|an|one|two|three|four|five|six|seven|eight|nine|ten|a couple of|a few)\s+(day|week|month|year)s?\s+ago\b/g,
      (m) => {
        const n = /^\d+$/.test(m[1]!) ? Number(m[1]) : (NUMBER_WORDS[m[1]!.replace(/^a (couple|few) of$/, '$1')] ?? 1);
        const unit = m[2]!;
        const span = unit === 'day' ? DAY : unit === 'week' ? 7 * DAY : unit === 'month' ? 30 * DAY : 365 * DAY;
        const center = now - n * span;
        const slack = unit === 'day' ? 0 : Math.round(span / 2 / DAY) * DAY;
        return [center - slack, Math.min(now, center + slack)];
      },
    ],
    [
      new RegExp(`\\b(last|this|on)\\s+(${WEEKDAYS.join('|')})\\b`, 'g'),
      (m) => {
        const target = WEEKDAYS.indexOf(m[2]!);
        const back = (nowDate.getUTCDay() - target + 7) % 7 || 7;
        const d = now - back * DAY;
        return [d, d];
      },
    ],
  ];
  for (const [re, f] of rel) {
    for (const m of q.matchAll(re)) {
      const r = f(m);
      if (r) add(r[0], r[1], m.index!, m[0].length);
    }
  }
  return out;
}

/** Is the ISO date (or date-time) `day` inside one of `ranges`? */
export function inRanges(day: string | undefined, ranges: readonly DayRange[]): boolean {
  if (!day) return false;
  const d = day.slice(0, 10);
  return ranges.some((r) => d >= r.from && d <= r.to);
}

/**
 * Does the query ask for a time ("when did …", "what date …", "how long ago …")? Such a question is
 * answered by a line that states a time, so recall may rank those up ({@link mentionsTime}).
 */
export function asksWhen(query: string): boolean {
  return /(?:^|[.?!]\s+)when\b|\b(?:what|which)\s+(?:date|day|time|year|month|week(?:end)?)\b|\bhow\s+long\s+ago\b/i.test(
    query.trim(),
  );
}

const TIME_WORDS = new RegExp(
  [
    '\\b\\d{4}-\\d{2}(?:-\\d{2})?\\b',
    '\\b(?:19|20)\\d{2}\\b',
    `\\b${MONTH_RE}\\b`,
    `\\b(?:${WEEKDAYS.join('|')})s?\\b`,
    '\\b(?:yesterday|today|tonight|tomorrow|recently|weekend)\\b',
    '\\b(?:last|next|this|past)\\s+(?:week|month|year|night|summer|winter|spring|fall|autumn|time)\\b',
    '\\b(?:\\d{1,3}|a|an|one|two|three|four|five|six|seven|eight|nine|ten|few|couple)\\s+(?:of\\s+)?(?:days?|weeks?|months?|years?)\\s+(?:ago|back|before)\\b',
  ].join('|'),
  'i',
);

/** Does `text` state a time: a date, a year, a month or weekday name, or a relative time ("last week", "2 days ago")? */
export function mentionsTime(text: string): boolean {
  // "May" and "march" are often not months; they count only with a day or year next to them.
  const t = text.replace(/\b(may|march)\b(?!\s+\d)/gi, '');
  return TIME_WORDS.test(t);
}
