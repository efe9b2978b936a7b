// Time-zone names of Windows ("Pacific Standard Time"), as files exported from Windows-based tools (Outlook,
// Exchange, Dynamics) write a contact's zone: the IANA zone each means, by CLDR's mapping (windows-iana).

/** Zones IANA has renamed that CLDR's mapping still gives by their old names (kept by IANA as links, in its
 * `backward` file): the current name is the one given, as a person would type it and the service would show it. */
const renamed: Record<string, string> = {
  'Asia/Calcutta': 'Asia/Kolkata',
  'Europe/Kiev': 'Europe/Kyiv',
  'Asia/Katmandu': 'Asia/Kathmandu',
  'Asia/Rangoon': 'Asia/Yangon',
  'America/Godthab': 'America/Nuuk',
  'America/Buenos_Aires': 'America/Argentina/Buenos_Aires',
  'America/Indianapolis': 'America/Indiana/Indianapolis',
};

/** Windows' fixed offsets ("UTC-08"): an offset, read as the offset rule reads one (zone-hint.ts), not as a place. */
const offsetName = /^utc[+-]\d+$/i;

let byName: Map<string, string> | undefined;

/** Loads the mapping: some 90 KB of code, loaded by the commands that read zones, not by every one that imports the
 * schedule checks (the sandbox among them). */
export async function loadWindowsZones(): Promise<void> {
  if (byName) return;
  const loaded = await import('windows-iana');
  // A CommonJS module: bundled, its exports are the namespace's default only; in Node they are both.
  const { WINDOWS_TO_IANA_MAP } = loaded.default ?? loaded;
  byName = new Map(
    WINDOWS_TO_IANA_MAP.filter((entry) => entry.territory === '001' && !offsetName.test(entry.windowsName)).map(
      (entry) => [entry.windowsName.toLowerCase(), renamed[entry.iana[0]!] ?? entry.iana[0]!],
    ),
  );
}

/** The IANA zone a Windows zone name means, in any letter case ("pacific standard time" is America/Los_Angeles):
 * the one CLDR gives for territory 001, which Windows itself takes for the name. Undefined for any other text (and
 * for Windows' fixed offsets), and before loadWindowsZones. */
export function ianaOfWindowsZone(name: string): string | undefined {
  return byName?.get(name.trim().toLowerCase());
}
