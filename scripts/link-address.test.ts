import { describe, expect, it } from 'vitest';
import { linkAddress } from './link-address';

const configured = { publicUrl: 'http://localhost:3000', dataDir: '/srv/portal/data' };
const running = { publicUrl: 'http://localhost:3100', pid: 4242, linkKey: 'DATA_DIR' as const };
const command = 'npm run agreement-link';

describe('the address the link scripts build their links on', () => {
  it("takes the server's PUBLIC_URL or PORT when given, and says nothing", () => {
    const given = { publicUrl: 'https://portal.example.org', dataDir: '/srv/portal/data' };
    expect(linkAddress({ PUBLIC_URL: 'https://portal.example.org' }, given, running, command)).toEqual({
      publicUrl: 'https://portal.example.org',
      notes: [],
    });
    expect(linkAddress({ PORT: '3000' }, configured, running, command)).toEqual({
      publicUrl: 'http://localhost:3000',
      notes: [],
    });
  });

  it('else takes the address of the server running from the same DATA_DIR, and names it', () => {
    expect(linkAddress({}, configured, running, command)).toEqual({
      publicUrl: 'http://localhost:3100',
      notes: ['(Built for the server running at http://localhost:3100 from /srv/portal/data, process 4242.)'],
    });
  });

  it('warns when that server signs with another key than the script would', () => {
    const withSecret = { ...running, linkKey: 'LINK_SECRET' as const };
    expect(linkAddress({}, configured, withSecret, command).notes[1]).toBe(
      '(That server signs links with its LINK_SECRET: run this with the same LINK_SECRET, or the link will not open.)',
    );
    expect(linkAddress({ LINK_SECRET: 'x'.repeat(32) }, configured, running, command).notes[1]).toBe(
      '(That server signs links with the key in /srv/portal/data, not LINK_SECRET: run this without LINK_SECRET, or the link will not open.)',
    );
    expect(linkAddress({ LINK_SECRET: 'x'.repeat(32) }, configured, withSecret, command).notes).toHaveLength(
      1,
    );
  });

  it('with no server running and nothing given, says which address it assumed and how to change it', () => {
    expect(linkAddress({}, configured, null, command)).toEqual({
      publicUrl: 'http://localhost:3000',
      notes: [
        '(Built for http://localhost:3000: no server is running from /srv/portal/data, and neither PUBLIC_URL nor PORT is set. If the server runs elsewhere, run this with its PUBLIC_URL or PORT, and its LINK_SECRET or DATA_DIR, for example: PORT=3100 npm run agreement-link)',
      ],
    });
  });
});
