// Time-zone names of Windows ("Pacific Standard Time"), as files exported from Windows-based tools (Outlook,
// Exchange, Dynamics) write a contact's zone: the IANA zone each means, by CLDR's mapping (windows-iana).

let byName: Map<string, string> | undefined;

/** Loads the mapping: some 90 KB of code, loaded by the commands that read zones, not by every one that imports the
 * schedule checks (the sandbox among them). */
export async function loadWindowsZones(): Promise<void> {
  if (byName) return;
  const loaded = await import('windows-iana');
  // A CommonJS module: bundled, its exports are the namespace's default only; in Node they are both.
  const { WINDOWS_TO_IANA_MAP } = loaded.default ?? loaded;
  byName = new Map(
    WINDOWS_TO_IANA_MAP.filter((entry) => entry.territory === '001').map((entry) => [
      entry.windowsName.toLowerCase(),
      entry.iana[0]!,
    ]),
  );
}

/** The IANA zone a Windows zone name means, in any letter case ("pacific standard time" is America/Los_Angeles):
 * the one CLDR gives for territory 001, which Windows itself takes for the name. Undefined for any other text, and
 * before loadWindowsZones. */
export function ianaOfWindowsZone(name: string): string | undefined {
  return byName?.get(name.trim().toLowerCase());
}
