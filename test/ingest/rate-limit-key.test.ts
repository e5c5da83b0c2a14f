import { describe, expect, it } from 'vitest';
import { rateLimitSubject } from '../../src/http/ingest/rate-limit-key';

describe('rateLimitSubject', () => {
  it.each([
    ['192.0.2.7', '192.0.2.7'],
    ['2001:db8:1:2::1', '2001:db8:1:2::/64'],
    ['2001:0DB8:0001:0002:ffff:ffff:ffff:fffe', '2001:db8:1:2::/64'],
    ['2001:db8::1', '2001:db8:0:0::/64'],
    ['::1', '0:0:0:0::/64'],
    ['fe80::1%eth0', 'fe80:0:0:0::/64'],
    ['64:ff9b::192.0.2.1', '64:ff9b:0:0::/64'],
    // A dual-stack listener sees IPv4 clients as IPv4-mapped: each is its own subject.
    ['::ffff:192.0.2.7', '192.0.2.7'],
    ['::FFFF:198.51.100.1', '198.51.100.1'],
  ])('%s → %s', (address, subject) => {
    expect(rateLimitSubject(address)).toBe(subject);
  });

  it('an unknown address is one subject', () => {
    expect(rateLimitSubject(null)).toBe('unknown');
  });
});
