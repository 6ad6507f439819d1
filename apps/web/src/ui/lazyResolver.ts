import { useEffect } from 'react';
import type { FieldValues, Resolver } from 'react-hook-form';

/**
 * A react-hook-form resolver whose schema module (and zod with it) loads on the first validation,
 * not with the page: a form in a page's first view keeps zod out of the page's first-load bytes.
 * usePreload fetches the module as soon as the form is on screen, so it is usually there before
 * the shopper's first submit or blur.
 */
export function lazyResolver<T extends FieldValues>(load: () => Promise<{ resolver: Resolver<T> }>): Resolver<T> {
  return async (values, context, options) => (await load()).resolver(values, context, options);
}

/** Starts loading a lazily resolved form's schema once the form is on screen. */
export function usePreload(load: () => Promise<unknown>): void {
  useEffect(() => {
    void load();
  }, [load]);
}
