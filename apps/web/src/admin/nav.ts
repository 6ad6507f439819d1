/** The back office's sections, their `g` shortcut letters and the palette's page list. */
export const NAV = [
  { to: '/admin', label: 'Dashboard', key: 'd' },
  { to: '/admin/orders', label: 'Orders', key: 'o' },
  { to: '/admin/invoices', label: 'Invoices', key: 'n' },
  { to: '/admin/products', label: 'Products', key: 'p' },
  { to: '/admin/reviews', label: 'Reviews', key: 'r' },
  { to: '/admin/members', label: 'Members', key: 'm' },
  { to: '/admin/gift-cards', label: 'Gift cards', key: 'v' },
  { to: '/admin/data', label: 'Data collections', key: 'c' },
  { to: '/admin/import-export', label: 'Import & export', key: 'i' },
  { to: '/admin/settings', label: 'Settings', key: 's' },
] as const;
