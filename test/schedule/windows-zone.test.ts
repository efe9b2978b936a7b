// Windows' zone names as the IANA zones CLDR maps them to (territory 001), in any case; each a zone ICU knows.
import { beforeAll, describe, expect, it } from 'vitest';
import { WINDOWS_TO_IANA_MAP } from 'windows-iana';
import { ianaOfWindowsZone, loadWindowsZones } from '../../src/schedule/windows-zone.js';
import { isTimeZone } from '../../src/schedule/week.js';
import { zoneHint } from '../../src/schedule/zone-hint.js';

describe('a Windows zone name', () => {
  beforeAll(() => loadWindowsZones());

  it.each([
    ['Pacific Standard Time', 'America/Los_Angeles'],
    ['  eastern standard time ', 'America/New_York'],
    ['GMT Standard Time', 'Europe/London'],
    ['Romance Standard Time', 'Europe/Paris'],
    ['UTC', 'Etc/UTC'],
    // CLDR's old names, given by the current ones.
    ['India Standard Time', 'Asia/Kolkata'],
    ['FLE Standard Time', 'Europe/Kyiv'],
    ['Nepal Standard Time', 'Asia/Kathmandu'],
    ['Myanmar Standard Time', 'Asia/Yangon'],
    ['Greenland Standard Time', 'America/Nuuk'],
    ['Argentina Standard Time', 'America/Argentina/Buenos_Aires'],
    ['US Eastern Standard Time', 'America/Indiana/Indianapolis'],
  ])('%s is %s', (name, zone) => expect(ianaOfWindowsZone(name)).toBe(zone));

  it('is nothing when it is not one, nor for a fixed offset (read as an offset: UTC-08 is Etc/GMT+8)', () => {
    for (const name of ['', 'Pacific', 'America/Los_Angeles', 'Pacific Standard', 'PST', 'UTC-08', 'utc+12'])
      expect(ianaOfWindowsZone(name)).toBeUndefined();
    expect(zoneHint('UTC-08')).toMatch(/^UTC-08 is Etc\/GMT\+8 \(IANA inverts the sign\)/);
  });

  it('maps, each of them, to a zone the schedules are worked out in', () => {
    const names = [...new Set(WINDOWS_TO_IANA_MAP.map((entry) => entry.windowsName))];
    expect(names.length).toBeGreaterThan(130);
    const places = names.filter((name) => !/^UTC[+-]/.test(name));
    expect(places.filter((name) => !isTimeZone(ianaOfWindowsZone(name) ?? ''))).toEqual([]);
  });

  it('typed where an IANA zone is asked for, is named in the hint', () => {
    expect(zoneHint('Tokyo Standard Time')).toBe('"Tokyo Standard Time" is Windows\' name for Asia/Tokyo');
  });
});
