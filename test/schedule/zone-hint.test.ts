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
  });

  it('guesses nothing for an abbreviation that names several places, or a name nothing is near', () => {
    expect(zoneHint('IST')).toBeUndefined();
    expect(zoneHint('Mars/Base')).toBeUndefined();
  });
});
