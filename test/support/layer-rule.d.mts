// Types of layer-rule.mjs (plain JS so that eslint.config.js can read it without a TypeScript loader).
export declare const ALLOWED: Readonly<Record<string, readonly string[]>>;
export declare const ENTRY_EXCEPTIONS: Readonly<Record<string, readonly string[]>>;
