import { afterEach, describe, expect, it, vi } from 'vitest';
import { localShort, localWithZone } from '../../protocol/time-format';

// Times in the computer's own zone follow the computer: a laptop flown from Berlin to New York
// shows New York times without a restart, within a second (formats are kept that long: making one
// per row held the window). Node takes a changed TZ at once.
const before = process.env.TZ;
afterEach(() => {
  vi.useRealTimers();
  if (before === undefined) delete process.env.TZ;
  else process.env.TZ = before;
});

describe('local times', () => {
  it("follow the computer's zone when it changes, and keep a named zone as named", () => {
    vi.useFakeTimers({ toFake: ['Date'] });
    const noonUtc = Date.parse('2026-11-24T12:00:00Z');
    process.env.TZ = 'Europe/Berlin';
    expect(localWithZone(noonUtc, { locale: 'en-GB' })).toMatch(/13:00:00/);
    expect(localShort(noonUtc, { locale: 'en-GB' })).toMatch(/13:00/);
    process.env.TZ = 'America/New_York';
    vi.setSystemTime(Date.now() + 1_001);
    expect(localWithZone(noonUtc, { locale: 'en-GB' })).toMatch(/07:00:00/);
    expect(localShort(noonUtc, { locale: 'en-GB' })).toMatch(/07:00/);
    expect(localWithZone(noonUtc, { locale: 'en-GB', timeZone: 'Asia/Tokyo' })).toMatch(/21:00:00/);
  });
});
