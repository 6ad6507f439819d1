import type { Product } from '@bodega/sdk';
import { ListTable } from '../ListTable.js';
import { dateTime, Status } from '../ui.js';
import { useBackInStockRequests } from './queries.js';

/** Who asked to be mailed when a sold-out variant of this product is back, and whether they were. */
export function BackInStockPanel({ product }: { product: Product }) {
  const requests = useBackInStockRequests(product._id ?? '');
  const variantName = (variantId: string | undefined) => {
    const variant = product.variants?.find((v) => v._id === variantId);
    return variant?.choices ? Object.values(variant.choices).join(' · ') : 'Any';
  };
  const waiting = requests.data?.filter((r) => r.status === 'RECEIVED').length ?? 0;
  return (
    <section className="panel" aria-labelledby="back-in-stock-heading">
      <h2 id="back-in-stock-heading">Back-in-stock requests</h2>
      <p className="muted small">{waiting === 0 ? 'Nobody is waiting.' : `${waiting} waiting: they are mailed once, when their variant is back in stock.`}</p>
      <ListTable query={requests} items={requests.data} caption="Back-in-stock requests" loading="Loading requests…"
        empty="No shopper has asked about this product."
        columns={[{ label: 'E-mail' }, { label: 'Variant' }, { label: 'Status' }, { label: 'Asked' }]}
        row={(r) => (
          <tr key={r._id}>
            <td className="card-title truncate">{r.email}</td>
            <td data-label="Variant">{variantName(r.catalogReference.options?.variantId)}</td>
            <td data-label="Status"><Status value={r.status} /></td>
            <td data-label="Asked">{dateTime(r._createdDate)}</td>
          </tr>
        )} />
    </section>
  );
}
