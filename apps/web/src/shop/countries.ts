/** Countries the address forms offer (ISO 3166-1 alpha-2), most common first. */
export const COUNTRIES: readonly [string, string][] = [
  ['US', 'United States'], ['CA', 'Canada'], ['GB', 'United Kingdom'], ['IE', 'Ireland'], ['DE', 'Germany'], ['FR', 'France'],
  ['NL', 'Netherlands'], ['BE', 'Belgium'], ['ES', 'Spain'], ['IT', 'Italy'], ['PT', 'Portugal'], ['AT', 'Austria'],
  ['CH', 'Switzerland'], ['SE', 'Sweden'], ['NO', 'Norway'], ['DK', 'Denmark'], ['FI', 'Finland'], ['PL', 'Poland'],
  ['AU', 'Australia'], ['NZ', 'New Zealand'], ['JP', 'Japan'], ['SG', 'Singapore'], ['IL', 'Israel'], ['MX', 'Mexico'], ['BR', 'Brazil'],
];

export function countryName(code: string | undefined): string {
  return COUNTRIES.find(([c]) => c === code)?.[1] ?? code ?? '';
}
