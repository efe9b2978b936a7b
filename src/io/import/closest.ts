// "Did you mean": the closest names by edit distance, for unknown columns and flags.

/** Levenshtein distance. */
export function editDistance(a: string, b: string): number {
  const previous = Array.from({ length: b.length + 1 }, (_, i) => i);
  for (let i = 1; i <= a.length; i++) {
    let diagonal = previous[0]!;
    previous[0] = i;
    for (let j = 1; j <= b.length; j++) {
      const above = previous[j]!;
      previous[j] = Math.min(above + 1, previous[j - 1]! + 1, diagonal + (a[i - 1] === b[j - 1] ? 0 : 1));
      diagonal = above;
    }
  }
  return previous[b.length]!;
}

/** Up to `limit` candidates close to `name` (after `normalise`), best first. */
export function closest(name: string, candidates: string[], normalise: (s: string) => string, limit = 3): string[] {
  const target = normalise(name);
  return candidates
    .map((candidate) => {
      const other = normalise(candidate);
      const contains = other.includes(target) || target.includes(other);
      return { candidate, score: contains ? 0.5 : editDistance(target, other) };
    })
    .filter(({ score, candidate }) => score <= Math.max(2, Math.floor(normalise(candidate).length / 3)))
    .sort((a, b) => a.score - b.score)
    .slice(0, limit)
    .map(({ candidate }) => candidate);
}
