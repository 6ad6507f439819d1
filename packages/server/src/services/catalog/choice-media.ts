// Pictures of a product's option choices (Wix: a choice's media): a choice names media items of
// its product by id. Ids stay stable across a save that keeps a picture's URL, and a choice keeps
// its pictures across a save of the options that keeps the choice.
import { ApiError, type FieldViolation } from '../../platform/errors.js';
import type { MediaItem, ProductOption } from './products.js';

export interface ChoiceMediaAssignment {
  option: string;
  choice: string;
  mediaIds: string[];
}

/** The new media list, reusing the id of an item whose URL was there before. */
export function keepMediaIds<T extends { url: string }>(before: readonly MediaItem[], after: readonly T[], newId: () => string): (T & { id: string })[] {
  const free = [...before];
  return after.map((m) => {
    const at = free.findIndex((b) => b.url === m.url);
    const id = at >= 0 ? free.splice(at, 1)[0]!.id : newId();
    return { ...m, id };
  });
}

/** Copies each kept choice's pictures onto the new options (a patch's options carry none). */
export function keepChoiceMedia(before: readonly ProductOption[], after: ProductOption[]): void {
  for (const option of after) {
    const old = before.find((o) => o.name === option.name);
    for (const choice of option.choices) {
      const mediaIds = old?.choices.find((c) => c.value === choice.value)?.mediaIds;
      if (mediaIds?.length && !choice.mediaIds) choice.mediaIds = mediaIds;
    }
  }
}

/** Adds (or removes) pictures of choices; an unknown option, choice or media id is a 400. */
export function assignChoiceMedia(options: ProductOption[], media: readonly MediaItem[], assignments: readonly ChoiceMediaAssignment[], add: boolean): void {
  const violations: FieldViolation[] = [];
  assignments.forEach((a, i) => {
    const choice = options.find((o) => o.name === a.option)?.choices.find((c) => c.value === a.choice);
    if (!choice) {
      violations.push({ field: `media[${i}]`, rule: 'VALIDATION', description: `the product has no choice "${a.choice}" of option "${a.option}"` });
      return;
    }
    const unknown = a.mediaIds.find((id) => !media.some((m) => m.id === id));
    if (add && unknown !== undefined) {
      violations.push({ field: `media[${i}].mediaIds`, rule: 'VALIDATION', description: `the product has no media item ${unknown}` });
      return;
    }
    const current = choice.mediaIds ?? [];
    const next = add ? [...current, ...a.mediaIds.filter((id) => !current.includes(id))] : a.mediaIds.length ? current.filter((id) => !a.mediaIds.includes(id)) : [];
    if (next.length) choice.mediaIds = next;
    else delete choice.mediaIds;
  });
  if (violations.length) throw ApiError.validation(violations);
}

/** A choice's pictures that the product still has, in the choice's order. */
export function choiceMedia(media: readonly MediaItem[], mediaIds: readonly string[] | undefined): MediaItem[] {
  return (mediaIds ?? []).flatMap((id) => media.filter((m) => m.id === id));
}
