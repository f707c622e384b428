// Render front-matter + body for files gitmem writes (entries). YAML via the `yaml` package with the
// core schema, so what we write reads back identically. deps: core, yaml.
import { heavyParse } from './lazy.js';

/**
 * @returns `---\n<yaml>---\n<body>` using `eol` for every line end. Keys keep insertion order;
 * undefined values are dropped.
 */
export function renderWithFrontMatter(data: Record<string, unknown>, body: string, eol: '\n' | '\r\n' = '\n'): string {
  const clean: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(data)) if (v !== undefined) clean[k] = v;
  const yaml = stringifyQuoted(clean, {});
  const text = `---\n${yaml}---\n${body.endsWith('\n') ? body : `${body}\n`}`;
  return eol === '\n' ? text : text.replace(/\r?\n/g, '\r\n');
}

/** YAML 1.1's booleans (`yes`, `off`, `y`…) and null, and its number forms that YAML 1.2 reads as strings. */
const YAML11_BOOL_NULL = /^(?:y|yes|n|no|true|false|on|off|null|~)$/i;
const YAML11_NUMBER =
  /^[-+]?(?:0b[01_]+|0[0-7_]+|[0-9][0-9_]*(?::[0-5]?[0-9])+(?:\.[0-9_]*)?|[0-9][0-9_]*_[0-9_]*(?:\.[0-9_]*)?)$/;

/** @returns true when a YAML 1.1 reader would read the plain scalar `s` as something other than the string. */
function readsOtherwiseInYaml11(s: string): boolean {
  return YAML11_BOOL_NULL.test(s) || YAML11_NUMBER.test(s);
}

/**
 * One YAML value on one line (flow style for lists and maps), for an edit that sets a single
 * front-matter key: a string holding a line break, `]`, `: ` or `#` comes out quoted, so a value
 * taken from another file (an id, a tag) can never add keys of its own. Core schema, as above.
 */
export function yamlFlowValue(value: unknown): string {
  return stringifyQuoted(value, { collectionStyle: 'flow' }).replace(/\n$/, '');
}

/**
 * `value` as YAML (core schema, no line folding). A string that YAML 1.1 readers (older YAML
 * libraries, static-site generators, editors) would read as a boolean, null or number is quoted, so
 * `title: yes` stays the word for every reader (docs/bad-inputs.md R31).
 */
function stringifyQuoted(value: unknown, options: { collectionStyle?: 'flow' }): string {
  const { YamlDocument, visitYaml } = heavyParse();
  const doc = new YamlDocument(value, { schema: 'core' });
  visitYaml(doc, {
    Scalar(key, node) {
      if (key !== 'key' && typeof node.value === 'string' && readsOtherwiseInYaml11(node.value))
        node.type = 'QUOTE_DOUBLE';
    },
  });
  return doc.toString({ lineWidth: 0, flowCollectionPadding: false, ...options });
}
