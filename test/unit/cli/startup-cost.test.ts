import { describe, expect, it } from 'vitest';
import { startupStatus } from '../../../src/cli/startup-cost.js';

describe('startupStatus', () => {
  it('notes the eager certificate parsing of Node 20 when NODE_EXTRA_CA_CERTS is set', () => {
    const s = startupStatus({ NODE_EXTRA_CA_CERTS: '/some/where/ca.pem' }, '20.20.2');
    expect(s.extraCaCerts).toBe(true);
    expect(s.eagerCertificates).toBe(true);
    expect(s.note).toMatch(/NODE_EXTRA_CA_CERTS is set: Node 20\.20\.2 parses every root certificate/);
    expect(s.note).toMatch(/env -u NODE_EXTRA_CA_CERTS gitmem/);
    // The variable's value (a path on the user's machine) is never repeated.
    expect(JSON.stringify(s)).not.toContain('/some/where');
  });

  it('says nothing on Node 22, which parses them only for TLS, or when the variable is unset or empty', () => {
    expect(startupStatus({ NODE_EXTRA_CA_CERTS: '/ca.pem' }, '22.12.0')).toEqual({
      extraCaCerts: true,
      eagerCertificates: false,
    });
    expect(startupStatus({}, '20.20.2')).toEqual({ extraCaCerts: false, eagerCertificates: false });
    expect(startupStatus({ NODE_EXTRA_CA_CERTS: '' }, '20.20.2')).toEqual({
      extraCaCerts: false,
      eagerCertificates: false,
    });
  });
});
