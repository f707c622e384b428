import { describe, expect, it } from 'vitest';
import { DiagnosticCode } from '../../../src/core/diagnostics.js';
import type { RelPath } from '../../../src/core/paths.js';
import { parseFrontMatter, stripBom } from '../../../src/parse/front-matter.js';

const P = 'memory/entries/x.md' as RelPath;
const fm = (text: string) => parseFrontMatter(text, P);
const codes = (text: string) => fm(text).diagnostics.map((d) => d.code);

describe('front-matter: detection', () => {
  it('parses a YAML block and reports where the body starts', () => {
    const r = fm('---\ntitle: a\ntype: note\n---\n\n# H\n');
    expect(r.frontMatter?.language).toBe('yaml');
    expect(r.frontMatter?.data).toEqual({ title: 'a', type: 'note' });
    expect(r.frontMatter?.range).toEqual({ start: { line: 0, character: 0 }, end: { line: 3, character: 3 } });
    expect(r.bodyStartLine).toBe(4);
    expect(r.bodyOffset).toBe('---\ntitle: a\ntype: note\n---\n'.length);
    expect(r.closeLine).toBe(3);
    expect(r.diagnostics).toEqual([]);
  });

  it('has no front-matter without --- on line 1, or with ---- (a thematic break)', () => {
    expect(fm('# H\n---\na: 1\n---\n').frontMatter).toBeUndefined();
    expect(fm('----\na: 1\n----\n').frontMatter).toBeUndefined();
    expect(fm('').frontMatter).toBeUndefined();
    expect(fm('').diagnostics).toEqual([]);
  });

  it('treats an empty or comment-only block as an empty mapping', () => {
    expect(fm('---\n---\nbody').frontMatter?.data).toEqual({});
    expect(fm('---\n# only a comment\n---\nbody').frontMatter?.data).toEqual({});
    expect(fm('---\n---\nbody').bodyStartLine).toBe(2);
  });

  it('closes only on a line that is exactly --- (trailing blanks allowed)', () => {
    const r = fm('---\na: 1\n---x\nb: 2\n---  \nbody');
    expect(r.closeLine).toBe(4);
    expect(r.diagnostics.map((d) => d.code)).toEqual([DiagnosticCode.invalidYaml]);
    expect(fm('---\na: 1\n--- \t\nbody').frontMatter?.data).toEqual({ a: 1 });
  });

  it('unclosed block: diagnostic on line 1, no front-matter, whole text is body', () => {
    const r = fm('---\ntitle: a\n\n# Heading\n\n- item\n');
    expect(r.frontMatter).toBeUndefined();
    expect(r.bodyOffset).toBe(0);
    expect(r.bodyStartLine).toBe(0);
    expect(r.diagnostics).toHaveLength(1);
    expect(r.diagnostics[0]!.code).toBe(DiagnosticCode.unclosedFrontMatter);
    expect(r.diagnostics[0]!.range).toEqual({ start: { line: 0, character: 0 }, end: { line: 0, character: 3 } });
  });

  it('a block that is not a YAML mapping is body, with a hint saying so (R22)', () => {
    const r = fm('---\n- a\n- b\n---\nbody');
    expect(r.diagnostics.map((d) => [d.code, d.severity])).toEqual([[DiagnosticCode.frontMatterNotObject, 'hint']]);
    expect(r.diagnostics[0]!.message).toMatch(/lines 1-4 is not a YAML mapping, so it is read as body text/);
    expect(r.diagnostics[0]!.range.start).toEqual({ line: 0, character: 0 });
    expect(r.frontMatter).toBeUndefined();
    expect([r.bodyOffset, r.bodyStartLine, r.closeLine]).toEqual([0, 0, undefined]);
    expect(codes('---\njust a string\n---\n')).toEqual([DiagnosticCode.frontMatterNotObject]);
    expect(codes('---\n42\n---\n')).toEqual([DiagnosticCode.frontMatterNotObject]);
    expect(fm('---\nWe moved billing.\nIt retries.\n---\n# Later\n').frontMatter).toBeUndefined();
  });
});

describe('front-matter: YAML errors', () => {
  it('invalid YAML → invalid-yaml with the range in the file', () => {
    const r = fm('---\ntitle: a\ntags: [x, y\n---\nbody');
    expect(r.frontMatter?.data).toBeUndefined();
    expect(r.frontMatter?.range.end).toEqual({ line: 3, character: 3 });
    expect(r.diagnostics.length).toBeGreaterThan(0);
    for (const d of r.diagnostics) {
      expect(d.code).toBe(DiagnosticCode.invalidYaml);
      expect(d.severity).toBe('error');
      expect(d.range.start.line).toBeGreaterThanOrEqual(1);
      expect(d.range.end.line).toBeLessThanOrEqual(3);
    }
  });

  it('error offsets are shifted by the opening line (CRLF and BOM too)', () => {
    for (const [text, line, character] of [
      ['---\n{}+\n---\nbody\n', 1, 2],
      ['---\r\n{}+\r\n---\r\nbody\r\n', 1, 2],
      ['\uFEFF---\r\n{}+\r\n---\r\nbody', 1, 2],
    ] as const) {
      const d = fm(text).diagnostics;
      expect(d.map((x) => x.code)).toEqual([DiagnosticCode.invalidYaml]);
      expect(d[0]!.range.start).toEqual({ line, character });
      expect(d[0]!.range.end).toEqual({ line, character: character + 1 });
    }
  });

  it('duplicate keys are an error at the second key', () => {
    const d = fm('---\na: 1\na: 2\n---\n').diagnostics;
    expect(d.map((x) => x.code)).toEqual([DiagnosticCode.invalidYaml]);
    expect(d[0]!.range.start).toEqual({ line: 2, character: 0 });
  });

  it('B08: the same bad text parsed twice gives the same diagnostics both times', () => {
    const bad = '---\n{}+\n---\nbody';
    const a = fm(bad);
    const b = fm(bad);
    expect(a.diagnostics.length).toBe(1);
    expect(b.diagnostics).toEqual(a.diagnostics);
    expect(b.bodyOffset).toBe(a.bodyOffset);
    expect(b.frontMatter).toEqual(a.frontMatter);
  });

  it('B08: two parses of identical text never share data objects', () => {
    const t = '---\ntags: [a]\nsource: { agent: x }\n---\nbody';
    const a = fm(t).frontMatter!.data as { tags: string[]; source: { agent: string } };
    const b = fm(t).frontMatter!.data as { tags: string[]; source: { agent: string } };
    expect(a).not.toBe(b);
    a.tags.push('leak');
    a.source.agent = 'changed';
    expect(b.tags).toEqual(['a']);
    expect(b.source.agent).toBe('x');
    expect(fm(t).frontMatter!.data).toEqual({ tags: ['a'], source: { agent: 'x' } });
  });
});

describe('front-matter: values', () => {
  it('B06: dates stay strings exactly as written, in any timezone', () => {
    const before = process.env.TZ;
    process.env.TZ = 'America/Los_Angeles';
    try {
      expect(new Date(Date.UTC(2024, 2, 10)).getDate()).toBe(9); // the timezone really is in effect
      const r = fm(
        '---\ndate: 2024-03-10\nupdated: 2024-03-10T23:30:00+05:00\ncreated: 2026-11-29T14:02:00Z\n---\nStand-up notes.\n',
      );
      expect(r.frontMatter?.data).toEqual({
        date: '2024-03-10',
        updated: '2024-03-10T23:30:00+05:00',
        created: '2026-11-29T14:02:00Z',
      });
    } finally {
      if (before === undefined) delete process.env.TZ;
      else process.env.TZ = before;
    }
  });

  it('B06: explicit !!timestamp and !!binary tags still give the text as written', () => {
    const d = fm('---\nd: !!timestamp 2024-03-10\nb: !!binary aGVsbG8=\n---\n').frontMatter?.data;
    expect(d).toEqual({ d: '2024-03-10', b: 'aGVsbG8=' });
  });

  it('a %YAML 1.1 directive does not bring back Date objects', () => {
    const d = fm('---\n%YAML 1.1\n---\nd: 2024-03-10\n---\n');
    // The directive's own `---` closes our block first; nothing may come back as a Date either way.
    expect(JSON.stringify(d.frontMatter?.data ?? {})).not.toContain('T00:00:00');
  });

  it('core schema: yes/no stay strings, numbers and booleans are typed', () => {
    expect(fm('---\na: yes\nb: true\nc: 3\nd: 1.5\ne: null\n---\n').frontMatter?.data).toEqual({
      a: 'yes',
      b: true,
      c: 3,
      d: 1.5,
      e: null,
    });
  });

  it('data is a plain object and a __proto__ key stays an own property', () => {
    const d = fm('---\n__proto__: { polluted: 1 }\nx: 1\n---\n').frontMatter!.data!;
    expect(Object.getPrototypeOf(d)).toBe(Object.prototype);
    expect(Object.keys(d)).toEqual(['__proto__', 'x']);
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
  });

  it('aliases are expanded but alias bombs are an error, not a hang', () => {
    expect(fm('---\na: &x [1, 2]\nb: *x\n---\n').frontMatter?.data).toEqual({ a: [1, 2], b: [1, 2] });
    const lines = ['---', 'a: &a ["x","x","x","x","x","x","x","x","x"]'];
    for (let i = 0; i < 12; i++)
      lines.push(
        `${String.fromCharCode(98 + i)}: &${String.fromCharCode(98 + i)} [${Array(9)
          .fill('*' + String.fromCharCode(97 + i))
          .join(',')}]`,
      );
    lines.push('---', 'body');
    const r = fm(lines.join('\n'));
    expect(r.diagnostics.map((d) => d.code)).toEqual([DiagnosticCode.invalidYaml]);
    expect(r.frontMatter?.data).toBeUndefined();
  });
});

describe('front-matter: node ranges', () => {
  it('maps JSON pointers to key and value ranges in the file', () => {
    const text = '---\nid: x\ntags:\n  - a\n  - bb\nsource: { agent: claude }\n"a/b": 1\n---\nbody';
    const n = fm(text).frontMatter!.nodes;
    expect(n['']!.value).toEqual({ start: { line: 0, character: 0 }, end: { line: 7, character: 3 } });
    expect(n['/id']).toEqual({
      key: { start: { line: 1, character: 0 }, end: { line: 1, character: 2 } },
      value: { start: { line: 1, character: 4 }, end: { line: 1, character: 5 } },
    });
    expect(n['/tags/1']!.value).toEqual({ start: { line: 4, character: 4 }, end: { line: 4, character: 6 } });
    expect(n['/source/agent']!.value).toEqual({ start: { line: 5, character: 17 }, end: { line: 5, character: 23 } });
    expect(n['/a~1b']!.key!.start).toEqual({ line: 6, character: 0 });
  });

  it('a key without a value still gets a range', () => {
    const n = fm('---\na:\nb: 1\n---\n').frontMatter!.nodes;
    expect(n['/a']?.key?.start).toEqual({ line: 1, character: 0 });
  });

  it('ranges are UTF-16 columns on BOM-less text, and CRLF does not move them', () => {
    const lf = fm('---\ntitle: 😀 東京\nx: 1\n---\n').frontMatter!.nodes;
    const crlf = fm('\uFEFF---\r\ntitle: 😀 東京\r\nx: 1\r\n---\r\n').frontMatter!.nodes;
    expect(lf['/title']!.value).toEqual({ start: { line: 1, character: 7 }, end: { line: 1, character: 12 } });
    expect(crlf).toEqual(lf);
  });
});

describe('front-matter: other languages are never evaluated', () => {
  it('---js is rejected without running it', () => {
    const g = globalThis as { PWNED?: unknown };
    delete g.PWNED;
    const r = fm('---js\nmodule.exports = (function(){ globalThis.PWNED = 1 })()\n---\nbody');
    expect(g.PWNED).toBeUndefined();
    expect(r.diagnostics.map((d) => d.code)).toEqual([DiagnosticCode.unsupportedLanguage]);
    expect(r.diagnostics[0]!.range).toEqual({ start: { line: 0, character: 3 }, end: { line: 0, character: 5 } });
    expect(r.frontMatter?.language).toBe('js');
    expect(r.frontMatter?.data).toBeUndefined();
    expect(r.bodyStartLine).toBe(3);
  });

  it.each(['js', 'javascript', 'coffee', 'toml', 'json', 'weird lang'])('---%s → unsupported-language', (lang) => {
    const g = globalThis as { PWNED?: unknown };
    delete g.PWNED;
    const r = fm(`---${lang}\n(globalThis.PWNED = 1)\n---\nbody`);
    expect(g.PWNED).toBeUndefined();
    expect(r.diagnostics.map((d) => d.code)).toEqual([DiagnosticCode.unsupportedLanguage]);
    expect(r.frontMatter?.language).toBe(lang);
  });

  it('---yaml and ---yml are YAML', () => {
    expect(fm('---yaml\na: 1\n---\n').frontMatter?.data).toEqual({ a: 1 });
    expect(fm('---yml\na: 1\n---\n').frontMatter?.data).toEqual({ a: 1 });
  });

  it('B10: ---toml with CRLF → unsupported-language, no throw', () => {
    const r = fm('---toml\r\ntype = "decision"\r\n---\r\nUse lunr.');
    expect(r.diagnostics.map((d) => d.code)).toEqual([DiagnosticCode.unsupportedLanguage]);
    expect(r.bodyStartLine).toBe(3);
    expect(r.text.slice(r.bodyOffset)).toBe('Use lunr.');
  });
});

describe('front-matter: BOM and CRLF (B10)', () => {
  it('stripBom', () => {
    expect(stripBom('\uFEFFa')).toEqual({ text: 'a', hasBom: true });
    expect(stripBom('a\uFEFF')).toEqual({ text: 'a\uFEFF', hasBom: false });
  });

  it('BOM, CRLF and LF copies give identical data and body', () => {
    const lf = '---\ntype: decision\n---\nUse lunr.';
    const variants = [lf, `\uFEFF${lf}`, lf.replace(/\n/g, '\r\n'), `\uFEFF${lf.replace(/\n/g, '\r\n')}`];
    const results = variants.map(fm);
    for (const r of results) {
      expect(r.frontMatter?.data).toEqual({ type: 'decision' });
      expect(r.text.slice(r.bodyOffset)).toBe('Use lunr.');
      expect(r.bodyStartLine).toBe(3);
      expect(r.diagnostics).toEqual([]);
    }
    expect(results.map((r) => r.hasBom)).toEqual([false, true, false, true]);
  });
});
