/** Documents by matter, in the order first met: a few matters and the first few names of each (a banner, a command's list). */
export function byMatter(
  missing: readonly { matter: string | null; fileName: string }[],
  shown: { matters: number; names: number } = { matters: 4, names: 3 },
): { matter: string | null; names: string[]; more: number }[] {
  const matters = new Map<string | null, string[]>();
  for (const document of missing) {
    const names = matters.get(document.matter);
    if (names) names.push(document.fileName);
    else matters.set(document.matter, [document.fileName]);
  }
  return [...matters].slice(0, shown.matters).map(([matter, names]) => ({
    matter,
    names: names.slice(0, shown.names),
    more: Math.max(0, names.length - shown.names),
  }));
}
