import { Link } from '../router/Router.js';
import { describeSize } from '../ui/bytes.js';
import { EmptyState, ErrorState, Loading } from '../ui/States.js';
import { usePageTitle } from '../ui/usePageTitle.js';
import { useMyDownloads } from './queries.js';

const day = (iso: string) => new Date(iso).toLocaleDateString('en-US', { dateStyle: 'medium', timeZone: 'UTC' });

/** The files a member bought, each with a fresh link, how many downloads are left and until when. */
export default function AccountDownloadsPage() {
  usePageTitle('Your downloads');
  const downloads = useMyDownloads();
  if (downloads.isPending) return <><h1>Downloads</h1><Loading label="Loading your downloads…" /></>;
  if (downloads.isError) return <><h1>Downloads</h1><ErrorState error={downloads.error} retry={() => void downloads.refetch()} /></>;
  if (downloads.data.length === 0) {
    return <><h1>Downloads</h1><EmptyState title="No downloads yet" action={{ to: '/products', label: 'Browse the shop' }}><p>Files you buy while signed in show up here once the order is paid.</p></EmptyState></>;
  }
  return (
    <>
      <h1>Downloads</h1>
      <p className="muted">Each link below is new and works until the date shown.</p>
      <ul className="order-list" role="list">
        {downloads.data.map((d) => {
          const left = d.maxDownloads - d.downloadsUsed;
          return (
            <li key={`${d.lineItemId}-${d.fileId}`} className="panel order-row">
              <div>
                <p className="order-title">{d.productName}</p>
                <p className="muted small">
                  {d.fileName} · {describeSize(d.size)} · <Link to={`/account/orders/${encodeURIComponent(d.orderId)}`}>order #{d.orderNumber}</Link>
                </p>
                <p className="small">
                  {d.unavailable ? d.unavailable.description : `${left} of ${d.maxDownloads} downloads left${d.expirationDate ? ` · link works until ${day(d.expirationDate)}` : ''}`}
                </p>
              </div>
              {d.url && <a className="button" href={d.url} download={d.fileName}>Download<span className="visually-hidden"> {d.fileName}</span></a>}
            </li>
          );
        })}
      </ul>
    </>
  );
}
