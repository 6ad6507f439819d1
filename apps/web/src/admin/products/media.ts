import type { Product, ProductChoice, ProductInput } from '@bodega/sdk';
import type { AdminClient } from '../client.js';

/** One picture of the product form: uploaded (a /media/u/ path) or an outside address. */
export interface MediaEntry {
  url: string;
  width?: number;
  height?: number;
  altText: string;
}

/** The form's pictures: in order (the first is the main one), and the picture of each choice by `option=choice`. */
export interface MediaState {
  items: MediaEntry[];
  choices: Record<string, string>;
}

/** A picture this server hosts is kept by its path, so the product keeps it under any domain. */
export function mediaPath(url: string): string {
  try {
    const parsed = new URL(url, window.location.origin);
    return parsed.pathname.startsWith('/media/') ? parsed.pathname : url;
  } catch {
    return url;
  }
}

/** Every choice of every option, as the wire has them. */
function optionChoices(p: Product | undefined): { name: string; choice: ProductChoice }[] {
  return (p?.productOptions ?? []).flatMap((o) => o.choices.map((choice) => ({ name: o.name, choice })));
}

export const choiceKey = (option: string, choice: string) => `${option}=${choice}`;

export function mediaOf(p: Product | undefined): MediaState {
  const items = (p?.media.items ?? []).flatMap(({ image }): MediaEntry[] => {
    if (!image.url) return [];
    return [{ url: mediaPath(image.url), altText: image.altText ?? '', width: image.width, height: image.height }];
  });
  const choices: Record<string, string> = {};
  for (const { name, choice } of optionChoices(p)) {
    const url = choice.media.mainMedia?.image.url;
    if (url && choice.value) choices[choiceKey(name, choice.value)] = mediaPath(url);
  }
  return { items, choices };
}

/** The product's `media` for create or update, when the pictures changed (undefined: leave them). */
export function mediaPatch(before: Product | undefined, state: MediaState): ProductInput['media'] | undefined {
  if (before && JSON.stringify(mediaOf(before).items) === JSON.stringify(state.items)) return undefined;
  if (!before && state.items.length === 0) return undefined;
  return {
    items: state.items.map((m) => ({
      image: { url: m.url, ...(m.width && m.height && { width: m.width, height: m.height }), ...(m.altText.trim() && { altText: m.altText.trim() }) },
    })),
  };
}

/** Sets each choice's picture (Wix: addProductMediaToChoices) after the product and its options are saved. */
export async function saveChoicePictures(api: AdminClient, productId: string, before: Product | undefined, state: MediaState, choices: { option: string; choice: string }[]): Promise<void> {
  const wanted = choices.flatMap((c) => {
    const url = state.choices[choiceKey(c.option, c.choice)];
    return url && state.items.some((m) => m.url === url) ? [{ ...c, url }] : [];
  });
  const had = mediaOf(before).choices;
  const same = wanted.length === Object.keys(had).length && wanted.every((w) => had[choiceKey(w.option, w.choice)] === w.url);
  if (same) return;
  const saved = (await api.products.getProduct(productId, { includeMerchantSpecificData: true })).product;
  const idOf = new Map(saved.media.items.map((item) => [mediaPath(item.image.url), item._id]));
  const existing = optionChoices(saved).map(({ name, choice }) => ({ option: name, choice: choice.value, mediaIds: [] as string[] }));
  for (let i = 0; i < existing.length; i += 10) await api.products.removeProductMediaFromChoices(productId, existing.slice(i, i + 10));
  const assignments = wanted.flatMap((w) => (idOf.get(w.url) ? [{ option: w.option, choice: w.choice, mediaIds: [idOf.get(w.url) as string] }] : []));
  for (let i = 0; i < assignments.length; i += 10) await api.products.addProductMediaToChoices(productId, assignments.slice(i, i + 10));
}
