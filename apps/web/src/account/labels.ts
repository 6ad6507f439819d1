const PAYMENT: Record<string, string> = {
  PAID: 'Paid', NOT_PAID: 'Not paid yet', PENDING: 'Payment pending', PARTIALLY_PAID: 'Partly paid', PARTIALLY_REFUNDED: 'Partly refunded',
  FULLY_REFUNDED: 'Refunded', CANCELED: 'Canceled', DECLINED: 'Payment declined', PENDING_MERCHANT: 'Payment pending',
};
const FULFILLMENT: Record<string, string> = { NOT_FULFILLED: 'Not fulfilled yet', FULFILLED: 'Fulfilled', PARTIALLY_FULFILLED: 'Partly fulfilled' };

export const paymentLabel = (status: string | undefined) => (status ? PAYMENT[status] ?? status : 'Unknown');
export const fulfillmentLabel = (status: string | undefined) => (status ? FULFILLMENT[status] ?? status : 'Not fulfilled yet');

export function orderDate(date: Date | string | undefined): string {
  if (!date) return '';
  const d = new Date(date);
  return Number.isNaN(d.getTime()) ? '' : d.toLocaleDateString('en-US', { year: 'numeric', month: 'long', day: 'numeric' });
}
