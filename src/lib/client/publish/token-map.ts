// Where a publish put each token: source token id → target token id, kept with the run's record,
// shown after the run and downloadable (CSV for a spreadsheet, JSON for a program). Pure.

/** [source token id, target token id], in the order the target minted them. */
export type TokenPair = [source: number, target: number];

export function tokenPairs(targetIds: Readonly<Record<number, number>>): TokenPair[] {
  return Object.entries(targetIds)
    .map(([source, target]): TokenPair => [Number(source), target])
    .sort((a, b) => a[1] - b[1]);
}

export function tokenMapCsv(pairs: readonly TokenPair[]): string {
  return `source_token_id,target_token_id\n${pairs.map(([s, t]) => `${s},${t}\n`).join('')}`;
}

export interface TokenMapDocument {
  source: { baseUrl: string; collectionId: number };
  target: { baseUrl: string; collectionId: number | null };
  tokens: { source: number; target: number }[];
}

export function tokenMapJson(doc: Omit<TokenMapDocument, 'tokens'>, pairs: readonly TokenPair[]): string {
  const full: TokenMapDocument = { ...doc, tokens: pairs.map(([source, target]) => ({ source, target })) };
  return `${JSON.stringify(full, null, 2)}\n`;
}

/** The published collection as the target's REST service answers it. */
export function collectionUrl(targetBaseUrl: string, collectionId: number): string {
  return `${targetBaseUrl.replace(/\/+$/, '')}/collections?collectionId=${collectionId}`;
}
