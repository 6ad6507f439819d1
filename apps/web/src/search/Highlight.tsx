import type { NameHighlight } from '@bodega/sdk';

/** A name with the words the query matched marked. */
export function Highlight({ parts, fallback }: { parts: NameHighlight | undefined; fallback: string }) {
  if (!parts?.length) return <>{fallback}</>;
  return <>{parts.map((p, i) => (p.match ? <mark key={i}>{p.text}</mark> : <span key={i}>{p.text}</span>))}</>;
}
