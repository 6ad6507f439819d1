// The official @wix/ecom tips calls' answers (tips-routes.ts): a tip choice, and a tip with its
// (here always empty) staff distributions. Amounts are decimal strings in the shop's currency.
import { Type } from 'typebox';

export const TipChoice = Type.Object({
  value: Type.String(),
  tipType: Type.String({ description: 'PERCENTAGE, AMOUNT or CUSTOM.' }),
}, { title: 'TipChoice' });

export const Tip = Type.Object({
  id: Type.Optional(Type.String({ description: 'The tip\'s id: its additional fee\'s code on the checkout and the order.' })),
  lineItemSubtotal: Type.String({ description: 'The goods after discounts the tip was counted on.' }),
  amount: Type.String(),
  distributions: Type.Array(Type.Unknown(), { description: 'Always empty: Bodega has no staff to distribute to.' }),
  undistributedAmount: Type.String(),
  tipType: Type.Optional(Type.String({ description: 'Bodega: the type chosen (PERCENTAGE, AMOUNT, CUSTOM).' })),
  staffDistributionMethod: Type.Optional(Type.String({ description: 'Bodega: the split the site had set (EQUAL or PROPORTIONAL), kept as given.' })),
}, { title: 'Tip' });

export const TipResponse = Type.Object({ tip: Tip }, { title: 'TipResponse' });
export const TipChoiceResponse = Type.Object({ tipChoice: Type.Optional(TipChoice) }, { title: 'TipChoiceResponse' });
