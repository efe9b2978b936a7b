// Streaming jobs allocate fast and briefly; left alone, V8 grows the young generation to 16 MB semi-spaces and keeps
// them. Not growing it cost no speed and about 14 MiB of peak memory on a million-row import (bench:import). Set only
// by the jobs that stream, so commands that answer at once do not load node:v8.
import { setFlagsFromString } from 'node:v8';

let tuned = false;

export function tuneMemoryForStreaming(): void {
  if (tuned) return;
  tuned = true;
  setFlagsFromString('--semi-space-growth-factor=1');
}
