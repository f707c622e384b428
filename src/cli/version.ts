/** gitmem's version, as `gitmem --version` prints it (keep equal to package.json). */
export const VERSION = '0.1.0';
