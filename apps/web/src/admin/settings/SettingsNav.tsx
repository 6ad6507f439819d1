import { NavLink } from '../../router/Router.js';
import { usePermissions } from '../context.js';
import './settings.css';

/** The settings pages; API keys, webhooks and the audit log only for those who may manage them (the owner). */
export function SettingsNav() {
  const { manageApiKeys, manageWebhooks } = usePermissions();
  const pages = [
    ['/admin/settings', 'Store'], ['/admin/settings/commerce', 'Shipping & tax'], ['/admin/settings/coupons', 'Coupons'],
    ...(manageApiKeys ? [['/admin/settings/payments', 'Payments'], ['/admin/settings/api-keys', 'API keys']] : []), ['/admin/settings/mail', 'Mail outbox'],
    ...(manageWebhooks ? [['/admin/settings/webhooks', 'Webhooks']] : []),
    ...(manageApiKeys ? [['/admin/settings/audit-log', 'Audit log']] : []),
  ];
  return (
    <nav aria-label="Settings" className="settings-nav">
      {pages.map(([to, label]) => <NavLink key={to} to={to} end>{label}</NavLink>)}
    </nav>
  );
}
