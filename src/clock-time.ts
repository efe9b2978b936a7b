// 14:02:10, local time: when a wait ends, a limit resets or a delivery came. A module of its own, for the client, the
// job mode and format.ts alike: in format.ts, the client would load a module file more on every start.
export function clockTime(ms: number): string {
  return new Date(ms).toTimeString().slice(0, 8);
}
