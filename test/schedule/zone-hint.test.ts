// A zone that is not one, and what it was probably meant to be.
import { describe, expect, it } from 'vitest';
import { zoneHint } from '../../src/schedule/zone-hint.js';

describe('zoneHint', () => {
  it('finds the zone of a city as people type it', () => {
    expect(zoneHint('Paris')).toBe('did you mean Europe/Paris?');
    expect(zoneHint('new york')).toBe('did you mean America/New_York?');
    expect(zoneHint('Europe/Berln')).toBe('did you mean Europe/Berlin?');
  });

  it('writes a UTC offset as IANA does, its sign inverted, and points at a city instead', () => {
    expect(zoneHint('UTC+2')).toBe(
      "UTC+2 is Etc/GMT-2 (IANA inverts the sign); a city's zone, such as Europe/Berlin, also follows daylight saving",
    );
    expect(zoneHint('GMT-5')).toMatch(/^GMT-5 is Etc\/GMT\+5 /);
    expect(zoneHint('+02:00')).toMatch(/^\+02:00 is Etc\/GMT-2 /);
    expect(zoneHint('UTC+14')).toMatch(/^UTC\+14 is Etc\/GMT-14 /);
    expect(zoneHint('UTC-12')).toMatch(/^UTC-12 is Etc\/GMT\+12 /);
    // No Etc/GMT+13 exists.
    expect(zoneHint('UTC-13')).toBeUndefined();
  });

  it('names the place of an offset of a part of an hour, which has no IANA zone of its own', () => {
    const india = "(its fixed zones are whole hours): give the place's zone, such as Asia/Kolkata";
    expect(zoneHint('UTC+05:30')).toBe(`IANA has no zone fixed at UTC+05:30 ${india}`);
    expect(zoneHint('+05:30')).toBe(`IANA has no zone fixed at +05:30 ${india}`);
    expect(zoneHint('GMT+5:30')).toBe(`IANA has no zone fixed at GMT+5:30 ${india}`);
    expect(zoneHint('UTC-03:30')).toMatch(/such as America\/St_Johns$/);
    expect(zoneHint('UTC+05:15')).toBeUndefined();
  });

  it('guesses nothing for an abbreviation that names several places, or a name nothing is near', () => {
    expect(zoneHint('IST')).toBeUndefined();
    expect(zoneHint('Mars/Base')).toBeUndefined();
  });
});
