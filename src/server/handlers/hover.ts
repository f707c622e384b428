// textDocument/hover: on a link or an id, a markdown preview of each memory it names (title, type,
// tags, provenance, status, path, first lines), or why nothing matches. deps: editor, vscode-languageserver.
import { MarkupKind } from 'vscode-languageserver/node.js';
import { maskName } from '../../core/secret-mask.js';
import { preview } from '../../editor/hover.js';
import { targetAt } from '../../editor/navigation.js';
import type { DocPreview } from '../../editor/types.js';
import { guard, type ServerContext } from '../context.js';
import { toLspRange } from '../convert.js';

/** Register textDocument/hover. */
export function registerHover(ctx: ServerContext): void {
  ctx.connection.onHover(
    guard(
      ctx.log,
      'hover',
      null,
      (p: { textDocument: { uri: string }; position: { line: number; character: number } }) => {
        const a = ctx.at(p.textDocument.uri);
        if (!a) return null;
        const t = targetAt(a.s.model.workspace, a.path, p.position);
        if (!t) return null;
        let value: string;
        if (t.docs.length === 0) {
          value =
            t.kind === 'id'
              ? `**[[${maskName(t.id)}]]**: no memory has this id or file name`
              : `\`${maskName(t.target)}\`${t.path && a.s.model.codeFiles().includes(t.path) ? ' (code file)' : ': no such file'}`;
        } else {
          value = t.docs.map((d) => renderPreview(preview(d))).join('\n\n---\n\n');
          if (t.kind === 'id' && t.docs.length > 1)
            value = `⚠ ${t.docs.length} memories share the id \`${maskName(t.id)}\`\n\n${value}`;
        }
        return { contents: { kind: MarkupKind.Markdown, value }, range: toLspRange(t.range) };
      },
    ),
  );
}

/** Markdown for a hover: title, type, tags, provenance, status, path, then the first lines. */
function renderPreview(p: DocPreview): string {
  const head = `**${escapeMd(p.title ?? p.id ?? p.path)}**${p.id && p.title ? ` · \`${p.id}\`` : ''}`;
  const facts: string[] = [];
  facts.push(p.type ? `type \`${p.type}\`` : `kind \`${p.kind}\``);
  if (p.tags.length) facts.push(`tags ${p.tags.map((t) => `\`#${t}\``).join(' ')}`);
  if (p.status) facts.push(`status \`${p.status}\``);
  if (p.created) facts.push(`created ${p.created}`);
  const lines = [head, '', facts.join(' · ')];
  const src = Object.entries(p.source);
  if (src.length) lines.push('', `source: ${src.map(([k, v]) => `${k} \`${v}\``).join(' · ')}`);
  if (p.duplicateOf) lines.push('', `duplicate of \`${p.duplicateOf}\``);
  lines.push('', `\`${p.path}\``);
  if (p.excerpt) lines.push('', '---', '', p.excerpt);
  return lines.join('\n');
}

function escapeMd(s: string): string {
  return s.replace(/([\\`*_[\]<>])/g, '\\$1');
}
