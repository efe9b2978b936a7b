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
    ['UTC-08', 'Etc/GMT+8'],
    ['UTC', 'Etc/UTC'],
  ])('%s is %s', (name, zone) => expect(ianaOfWindowsZone(name)).toBe(zone));

  it('is nothing when it is not one', () => {
    for (const name of ['', 'Pacific', 'America/Los_Angeles', 'Pacific Standard', 'PST'])
      expect(ianaOfWindowsZone(name)).toBeUndefined();
  });

  it('maps, each of them, to a zone the schedules are worked out in', () => {
    const names = [...new Set(WINDOWS_TO_IANA_MAP.map((entry) => entry.windowsName))];
    expect(names.length).toBeGreaterThan(130);
    expect(names.filter((name) => !isTimeZone(ianaOfWindowsZone(name) ?? ''))).toEqual([]);
  });

  it('typed where an IANA zone is asked for, is named in the hint', () => {
    expect(zoneHint('Tokyo Standard Time')).toBe('"Tokyo Standard Time" is Windows\' name for Asia/Tokyo');
  });
});
