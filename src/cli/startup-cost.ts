// What a process start costs before gitmem runs, for `gitmem doctor`: Node 20 reads and parses every
// root certificate at start-up when NODE_EXTRA_CA_CERTS is set (Node 22 does it only when a TLS
// connection needs them); `npm run bench:peers` prints the difference measured. Recall, get and the
// prompt hook open no TLS connection, so such a call can run without the variable. deps: node:* only.

/** The start-up cost doctor reports. */
export interface StartupStatus {
  /** NODE_EXTRA_CA_CERTS is set (its value is not shown). */
  readonly extraCaCerts: boolean;
  /** This Node parses the certificates at every start (Node 20 with the variable set). */
  readonly eagerCertificates: boolean;
  /** What to do about it, when there is something to do. */
  readonly note?: string;
}

/** @param env the environment (process.env); @param nodeVersion `process.versions.node`. */
export function startupStatus(env: NodeJS.ProcessEnv, nodeVersion: string): StartupStatus {
  const extraCaCerts = (env.NODE_EXTRA_CA_CERTS ?? '') !== '';
  const major = Number(nodeVersion.split('.')[0]);
  const eagerCertificates = extraCaCerts && major <= 20;
  if (!eagerCertificates) return { extraCaCerts, eagerCertificates };
  return {
    extraCaCerts,
    eagerCertificates,
    note:
      `NODE_EXTRA_CA_CERTS is set: Node ${nodeVersion} parses every root certificate when it starts, ` +
      'before gitmem runs (tens of ms per call; npm run bench:peers prints it). gitmem recall, get and ' +
      'hook prompt open no TLS connection: a hook can run them with `env -u NODE_EXTRA_CA_CERTS gitmem …`, ' +
      'or on Node 22, which parses them only for TLS',
  };
}
