/**
 * `@wix/ecom` tips and tipSettings, as a shop's checkout uses them: the site's tip settings (on or
 * off, the presets, whether an amount of one's own is allowed) and the tip chosen for a checkout
 * (its purchase flow id is the checkout's id). The server prices the tip with the checkout.
 */
import { call, enc } from '../core/generated.js';
import type { Transport } from '../core/transport.js';

const TIPS = '/_api/tips-service/v1/tips';
const SETTINGS = '/_api/tip-settings/v1/tip-settings';

export type TipType = 'PERCENTAGE' | 'AMOUNT' | 'CUSTOM';
export interface TipChoice {
  tipType: TipType;
  /** A percent ("15") for PERCENTAGE, else an amount in the shop's currency ("2.50"). */
  value: string;
}
export interface TipSettings {
  _id?: string;
  /** Whether the checkout offers tips. */
  allowCustomerTip?: boolean;
  tipType?: 'PERCENTAGE' | 'AMOUNT';
  presets?: { value: number; default: boolean }[];
  allowCustomAmount?: boolean;
  staffDistributionMethod?: 'EQUAL' | 'PROPORTIONAL';
}
export interface Tip {
  _id?: string;
  lineItemSubtotal?: string;
  amount?: string;
  undistributedAmount?: string;
}

/** The Wix Tips app: a tip on a checkout or order is the additional fee it provides. */
export const TIPS_APP_ID = '869a50c8-dd38-4324-b201-e33dc0747a5f';

export function tips(t: Transport) {
  return {
    /** The site's tip settings (one per site). */
    tipSettings: async () => (await call<{ tipSettings?: TipSettings[] }>(t, 'POST', `${SETTINGS}/query`, { query: {} })).tipSettings?.[0],
    getTipChoice: (purchaseFlowId: string) =>
      call<{ tipChoice?: TipChoice }>(t, 'GET', `${TIPS}/choice/${enc(purchaseFlowId)}`, { purchaseFlowId }),
    updateTipChoice: (tipChoice: TipChoice, options: { purchaseFlowId: string }) =>
      call<{ tipChoice?: TipChoice }>(t, 'PATCH', `${TIPS}/choice`, { tipChoice, purchaseFlowId: options.purchaseFlowId }),
    getTipByOrderId: (orderId: string) => call<{ tip?: Tip }>(t, 'GET', `${TIPS}/order/${enc(orderId)}`, { orderId }),
  };
}
