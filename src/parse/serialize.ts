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
  const yaml = heavyParse().stringifyYaml(clean, { schema: 'core', lineWidth: 0, flowCollectionPadding: false });
  const text = `---\n${yaml}---\n${body.endsWith('\n') ? body : `${body}\n`}`;
  return eol === '\n' ? text : text.replace(/\r?\n/g, '\r\n');
}

/**
 * One YAML value on one line (flow style for lists and maps), for an edit that sets a single
 * front-matter key: a string holding a line break, `]`, `: ` or `#` comes out quoted, so a value
 * taken from another file (an id, a tag) can never add keys of its own. Core schema, as above.
 */
export function yamlFlowValue(value: unknown): string {
  return heavyParse()
    .stringifyYaml(value, { schema: 'core', lineWidth: 0, collectionStyle: 'flow', flowCollectionPadding: false })
    .replace(/\n$/, '');
}
