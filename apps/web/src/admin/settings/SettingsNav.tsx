import { NavLink } from 'react-router';
import { usePermissions } from '../context.js';
import './settings.css';

/** The settings pages; API keys only for those who may manage them. */
export function SettingsNav() {
  const { manageApiKeys } = usePermissions();
  const pages = [
    ['/admin/settings', 'Store'], ['/admin/settings/commerce', 'Shipping & tax'], ['/admin/settings/coupons', 'Coupons'],
    ...(manageApiKeys ? [['/admin/settings/payments', 'Payments'], ['/admin/settings/api-keys', 'API keys']] : []), ['/admin/settings/mail', 'Mail outbox'], ['/admin/settings/webhooks', 'Webhooks'],
  ];
  return (
    <nav aria-label="Settings" className="settings-nav">
      {pages.map(([to, label]) => <NavLink key={to} to={to} end>{label}</NavLink>)}
    </nav>
  );
}
