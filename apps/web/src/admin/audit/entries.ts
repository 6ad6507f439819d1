// How the audit log page words an entry: its action, and its before → after as short lines.

const ACTIONS: Record<string, string> = {
  'order.refunded': 'Refunded an order', 'order.canceled': 'Canceled an order', 'order.marked_paid': 'Marked an order paid',
  'order.payment_recorded': 'Recorded a payment', 'member.role_changed': 'Changed a role', 'member.blocked': 'Blocked a member',
  'member.approved': 'Approved a member', 'member.muted': 'Muted a member', 'member.unmuted': 'Unmuted a member',
  'member.disconnected': 'Disconnected a member', 'member.deleted': 'Deleted a member', 'api_key.created': 'Created an API key',
  'api_key.revoked': 'Revoked an API key', 'site_settings.updated': 'Changed store settings', 'commerce_settings.updated': 'Changed shipping and tax',
  'webhook.created': 'Created a webhook', 'webhook.updated': 'Changed a webhook', 'webhook.paused': 'Paused a webhook',
  'webhook.resumed': 'Resumed a webhook', 'webhook.replayed': 'Replayed a delivery', 'webhook.deleted': 'Deleted a webhook',
  'data_collection.permissions_updated': 'Changed collection permissions', 'audit_settings.updated': 'Changed the audit log’s retention',
  'export.products': 'Exported products', 'export.orders': 'Exported orders', 'export.members': 'Exported members',
  'export.audit_log': 'Exported the audit log', 'export.import_failures': 'Downloaded an import’s failed rows',
  'export.order_import_failures': 'Downloaded an order import’s refused rows',
};

/** The filter's choices: every action the server records. */
export const AUDIT_ACTIONS = Object.entries(ACTIONS).map(([value, label]) => ({ value, label }));

export function actionLabel(action: string): string {
  return ACTIONS[action] ?? action;
}

function text(value: unknown): string {
  if (value === undefined || value === null || value === '') return '—';
  if (typeof value === 'string') return value;
  const json = JSON.stringify(value);
  return json.length > 80 ? `${json.slice(0, 79)}…` : json;
}

const isRecord = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value);

/** `key: before → after` for each setting that changed; `key: value` for what an action did. */
export function changeLines(before: unknown, after: unknown): string[] {
  const was = isRecord(before) ? before : {};
  const now = isRecord(after) ? after : {};
  const keys = [...new Set([...Object.keys(was), ...Object.keys(now)])];
  if (keys.length === 0) return ['—'];
  return keys.map((key) => {
    if (!(key in was)) return `${key}: ${text(now[key])}`;
    if (!(key in now)) return `${key} was ${text(was[key])}`;
    return `${key}: ${text(was[key])} → ${text(now[key])}`;
  });
}
