import { Outlet } from 'react-router';
import './auth.css';

/** The frame of the hosted sign-in pages. */
export function AuthLayout() {
  return (
    <main className="auth">
      <p className="brand" aria-hidden="true">Bodega</p>
      <Outlet />
    </main>
  );
}
