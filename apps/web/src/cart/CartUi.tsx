import { createContext, lazy, Suspense, useContext, useMemo, useState, type ReactNode } from 'react';

const CartDrawer = lazy(() => import('./CartDrawer.js'));

interface CartUi {
  openCart(): void;
}
const CartUiContext = createContext<CartUi>({ openCart: () => undefined });

export function useCartUi(): CartUi {
  return useContext(CartUiContext);
}

/** The cart drawer, loaded the first time it opens (it is not on any page's first load). */
export function CartUiProvider({ children }: { children: ReactNode }) {
  const [open, setOpen] = useState(false);
  const [loaded, setLoaded] = useState(false);
  const value = useMemo(() => ({ openCart: () => { setLoaded(true); setOpen(true); } }), []);
  return (
    <CartUiContext.Provider value={value}>
      {children}
      {loaded && (
        <Suspense fallback={null}>
          <CartDrawer open={open} onOpenChange={setOpen} />
        </Suspense>
      )}
    </CartUiContext.Provider>
  );
}
