import { EmptyState, ErrorState, Loading } from '../ui/States.js';
import { usePageTitle } from '../ui/usePageTitle.js';
import { useMyGiftCards } from './queries.js';

/** The gift cards a member bought: their codes, balances and who they went to. */
export default function AccountGiftCardsPage() {
  usePageTitle('Your gift cards');
  const cards = useMyGiftCards(true);
  if (cards.isPending) return <><h1>Gift cards</h1><Loading label="Loading your gift cards…" /></>;
  if (cards.isError) return <><h1>Gift cards</h1><ErrorState error={cards.error} retry={() => void cards.refetch()} /></>;
  if (cards.data.length === 0) {
    return <><h1>Gift cards</h1><EmptyState title="No gift cards yet" action={{ to: '/products', label: 'Find a gift card' }}><p>Gift cards you buy while signed in show up here.</p></EmptyState></>;
  }
  return (
    <>
      <h1>Gift cards</h1>
      <ul className="order-list" role="list">
        {cards.data.map((card) => (
          <li key={card.id} className="panel order-row">
            <div>
              <p className="order-title"><code>{card.code ?? card.obfuscatedCode}</code></p>
              <p className="muted small">
                {card.recipientEmail ? `For ${card.recipientName ?? card.recipientEmail}` : 'For you'}
                {card.deliveryDate ? ` · delivered ${new Date(card.deliveryDate).toLocaleDateString('en-US', { dateStyle: 'medium', timeZone: 'UTC' })}` : ''}
              </p>
            </div>
            <div className="badges">
              <span className="badge">{card.status === 'DISABLED' ? 'Disabled' : card.expired ? 'Expired' : 'Active'}</span>
            </div>
            <p className="order-total">{card.balance.formattedAmount} <span className="muted small">of {card.initialValue.formattedAmount}</span></p>
          </li>
        ))}
      </ul>
    </>
  );
}
