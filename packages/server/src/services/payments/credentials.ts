// What the back office may show of a provider's secret once it is stored (sealed with the server
// key through platform/secrets.ts): its kind and last four characters.
export function hint(secret: string): string {
  return `${secret.slice(0, secret.indexOf('_', 3) + 1 || 3)}…${secret.slice(-4)}`;
}
