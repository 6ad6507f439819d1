import { Outlet } from 'react-router';

/** The frame of the sign-in pages, inside the shop's own header and footer. */
export default function AuthLayout() {
  return (
    <div className="container auth">
      <div className="auth-card">
        <Outlet />
      </div>
    </div>
  );
}
