// The merge driver's use case for the CLI's small driver bundle (cli/merge-file-main.ts): only the
// three-way merge of one memory file (git/merge-file.ts), without the merge setup's modules
// (attributes, repository config) that merge-setup.ts brings. deps: git (merge-file).
export { mergeFiles } from '../../git/merge-file.js';
