// What a time zone that is not one was probably meant to be: "Paris" is Europe/Paris; "UTC+2" is Etc/GMT-2 (POSIX
// writes the offset with its sign inverted), though a city's zone, which follows daylight saving, is better; "+05:30"
// has no zone of its own, and is India's (Asia/Kolkata);
// "Pacific Standard Time" (Windows' name) is America/Los_Angeles.
import { editDistance } from '../io/import/closest.js';
import { ianaOfWindowsZone } from './windows-zone.js';

const zones = (): string[] => Intl.supportedValuesOf('timeZone');
/** A zone's city part, as a person types it: "new york" for America/New_York. */
const city = (zone: string) =>
  zone
    .slice(zone.lastIndexOf('/') + 1)
    .replace(/_/g, ' ')
    .toLowerCase();

/** Where the offsets of a part of an hour are kept, in standard time (a CRM writes India as +05:30). */
const partHourPlaces: Record<string, string> = {
  '-09:30': 'Pacific/Marquesas',
  '-03:30': 'America/St_Johns',
  '+03:30': 'Asia/Tehran',
  '+04:30': 'Asia/Kabul',
  '+05:30': 'Asia/Kolkata',
  '+05:45': 'Asia/Kathmandu',
  '+06:30': 'Asia/Yangon',
  '+08:45': 'Australia/Eucla',
  '+09:30': 'Australia/Adelaide or Australia/Darwin',
  '+10:30': 'Australia/Lord_Howe',
  '+12:45': 'Pacific/Chatham',
};

/** "did you mean ...?" for a zone that is not one, or undefined when nothing is close. */
export function zoneHint(given: string): string | undefined {
  // Typed as Windows shows it: the IANA zone it means is named, to be given instead.
  const windows = ianaOfWindowsZone(given);
  if (windows) return `"${given.trim()}" is Windows' name for ${windows}`;
  const offset = /^(?:utc|gmt)?\s*([+-])\s*(\d{1,2})(?::?(\d{2}))?$/i.exec(given.trim());
  // IANA's fixed zones run from Etc/GMT-14 (UTC+14) to Etc/GMT+12 (UTC-12).
  if (offset && Number(offset[2]) <= (offset[1] === '+' ? 14 : 12) && Number(offset[3] ?? 0) === 0) {
    const etc = `Etc/GMT${offset[1] === '+' ? '-' : '+'}${Number(offset[2])}`;
    return `${given.trim()} is ${etc} (IANA inverts the sign); a city's zone, such as Europe/Berlin, also follows daylight saving`;
  }
  const place = offset && partHourPlaces[`${offset[1]}${offset[2]!.padStart(2, '0')}:${offset[3]}`];
  if (place)
    return `IANA has no zone fixed at ${given.trim()} (its fixed zones are whole hours): give the place's zone, such as ${place}`;
  // The city as typed ("Paris", "new york", "Europe/Pari"): its zones, else those a typo or two away. Abbreviations
  // (IST, BST) name several places: none is guessed.
  const wanted = city(given.trim().replace(/-/g, '_'));
  if (wanted.length < 4) return undefined;
  const all = zones();
  const exact = all.filter((zone) => city(zone) === wanted);
  const typos = wanted.length >= 8 ? 2 : 1;
  const near = exact.length ? exact : all.filter((zone) => editDistance(city(zone), wanted) <= typos);
  return near.length && near.length <= 3 ? `did you mean ${near.join(' or ')}?` : undefined;
}
