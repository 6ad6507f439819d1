import { Outlet } from '../router/Router.js';
import { useHydrated } from '../shop/context.js';
import { Loading } from '../ui/States.js';

/**
 * The frame of the sign-in pages, inside the shop's own header and footer. The forms appear once
 * the app runs, so nothing typed before then is lost to hydration.
 */
export default function AuthLayout() {
  const hydrated = useHydrated();
  return (
    <div className="container auth">
      <div className="auth-card">
        {hydrated ? <Outlet /> : <Loading label="Loading…" lines={4} />}
      </div>
    </div>
  );
}
