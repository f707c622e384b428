// The commands of Claude's client-side memory tool (`memory_20250818`) as the model sends them, the
// error a command ends with, and the backend's options. Shapes as Anthropic documents them
// (docs/integrations.md, "Claude's memory tool"). deps: none.

/** `view`: a folder's listing (two levels deep) or a file's lines, numbered; `view_range` is [first, last] (1-based, last -1 = end). */
export interface ViewCommand {
  readonly command: 'view';
  readonly path: string;
  readonly view_range?: readonly [number, number] | readonly number[];
}
/** `create`: a new file holding `file_text`. */
export interface CreateCommand {
  readonly command: 'create';
  readonly path: string;
  readonly file_text: string;
}
/** `str_replace`: replace the one occurrence of `old_str` with `new_str`. */
export interface StrReplaceCommand {
  readonly command: 'str_replace';
  readonly path: string;
  readonly old_str: string;
  readonly new_str: string;
}
/** `insert`: add `insert_text` after line `insert_line` (0 = before the first line). */
export interface InsertCommand {
  readonly command: 'insert';
  readonly path: string;
  readonly insert_line: number;
  readonly insert_text: string;
}
/** `delete`: a file, or a folder and everything under it. */
export interface DeleteCommand {
  readonly command: 'delete';
  readonly path: string;
}
/** `rename`: move a file or folder; never replaces what is at `new_path`. */
export interface RenameCommand {
  readonly command: 'rename';
  readonly old_path: string;
  readonly new_path: string;
}

export type MemoryToolCommand =
  ViewCommand | CreateCommand | StrReplaceCommand | InsertCommand | DeleteCommand | RenameCommand;

/**
 * A command the backend refused or could not do. `message` is the text to give the model as the
 * tool result, with `is_error: true` (e.g. `The path /memories/x.md does not exist. Please provide a
 * valid path.`); nothing was written. `code` is gitmem's error code when a guard refused it
 * (`secret.found`, `path.outside-root`, `usage`, …), else `memory-tool`.
 */
export class MemoryToolError extends Error {
  override readonly name = 'MemoryToolError';
  constructor(
    message: string,
    readonly code: string = 'memory-tool',
  ) {
    super(message);
  }
}

/** Options of the memory-tool backend. */
export interface MemoryToolOptions {
  /**
   * The workspace folder `/memories` maps onto (relative to the workspace root, inside the layout's
   * memory folder). Default: `<memory folder>/claude` (`memory/claude` in the default layout).
   */
  readonly folder?: string;
  /** The channel named in the writer record and `gitmem review` (default `memory-tool`). */
  readonly via?: string;
}
