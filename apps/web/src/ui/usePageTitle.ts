import { useEffect } from 'react';
import { useShop } from '../shop/context.js';

export function usePageTitle(title: string | undefined): void {
  const { site } = useShop();
  useEffect(() => {
    if (title) document.title = `${title} · ${site.name}`;
  }, [title, site.name]);
}
