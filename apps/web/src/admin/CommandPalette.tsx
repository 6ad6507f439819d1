import { useEffect, useId, useRef, useState, type KeyboardEvent } from 'react';
import { useNavigate } from '../router/Router.js';
import { usePermissions } from './context.js';
import { NAV } from './nav.js';
import { usePaletteSearch } from './queries.js';
import { Modal } from './ui.js';

interface Entry { id: string; label: string; hint: string; to: string }

const SETTINGS_PAGES = [
  { to: '/admin/settings', label: 'Store settings' },
  { to: '/admin/settings/commerce', label: 'Shipping and tax' },
  { to: '/admin/settings/coupons', label: 'Coupons' },
  { to: '/admin/settings/mail', label: 'Mail outbox' },
  { to: '/admin/settings/webhooks', label: 'Webhooks' },
  { to: '/admin/settings/audit-log', label: 'Audit log' },
];

function useDebounced(value: string, ms: number): string {
  const [debounced, setDebounced] = useState(value);
  useEffect(() => {
    const timer = setTimeout(() => setDebounced(value), ms);
    return () => clearTimeout(timer);
  }, [value, ms]);
  return debounced;
}

/** Ctrl/Cmd+K: jump to any page, product, order or member, with the keyboard alone. */
export function CommandPalette({ open, onOpenChange }: { open: boolean; onOpenChange: (open: boolean) => void }) {
  const { manageApiKeys } = usePermissions();
  const navigate = useNavigate();
  const [q, setQ] = useState('');
  const [active, setActive] = useState(0);
  const listId = useId();
  const term = useDebounced(q.trim(), 150);
  const found = usePaletteSearch(term, open);
  useEffect(() => { if (!open) { setQ(''); setActive(0); } }, [open]);

  const pages = [...NAV, ...SETTINGS_PAGES, ...(manageApiKeys ? [{ to: '/admin/settings/api-keys', label: 'API keys' }] : []), { to: '/admin/products/new', label: 'New product' }, { to: '/admin/products/collections', label: 'Product collections' }];
  const lower = q.trim().toLowerCase();
  const entries: Entry[] = [
    ...pages.filter((p) => !lower || p.label.toLowerCase().includes(lower)).map((p) => ({ id: `page-${p.to}`, label: p.label, hint: 'Page', to: p.to })),
    ...(lower ? found.data?.products ?? [] : []).map((p) => ({ id: `product-${p.id}`, label: p.name, hint: 'Product', to: `/admin/products/${p.id}` })),
    ...(lower ? found.data?.orders ?? [] : []).map((o) => ({ id: `order-${o.id}`, label: `Order #${o.number}${o.buyerEmail ? ` · ${o.buyerEmail}` : ''}`, hint: 'Order', to: `/admin/orders/${o.id}` })),
    ...(lower ? found.data?.members ?? [] : []).map((m) => ({ id: `member-${m.id}`, label: m.name || m.email || m.id, hint: 'Member', to: `/admin/members?q=${encodeURIComponent(m.email ?? m.name ?? '')}` })),
  ];
  const current = Math.min(active, Math.max(0, entries.length - 1));

  function go(entry: Entry | undefined) {
    if (!entry) return;
    onOpenChange(false);
    navigate(entry.to);
  }
  function onKey(event: KeyboardEvent<HTMLInputElement>) {
    if (event.key === 'ArrowDown') { event.preventDefault(); setActive((current + 1) % Math.max(1, entries.length)); }
    if (event.key === 'ArrowUp') { event.preventDefault(); setActive((current - 1 + entries.length) % Math.max(1, entries.length)); }
    if (event.key === 'Enter') { event.preventDefault(); go(entries[current]); }
  }
  return (
    <Modal open={open} onOpenChange={onOpenChange} title="Jump to" description="Type a page, a product, an order number or an e-mail. Arrow keys choose, Enter opens.">
      <div className="palette">
        <label htmlFor={`${listId}-input`} className="visually-hidden">Search the back office</label>
        <input
          id={`${listId}-input`} role="combobox" aria-expanded="true" aria-controls={listId} aria-autocomplete="list"
          aria-activedescendant={entries[current] ? `${listId}-${current}` : undefined}
          autoComplete="off" value={q} onChange={(e) => { setQ(e.target.value); setActive(0); }} onKeyDown={onKey} placeholder="Search…"
        />
        <ul id={listId} role="listbox" aria-label="Results" className="palette-list">
          {entries.map((entry, i) => (
            <li key={entry.id} id={`${listId}-${i}`} role="option" aria-selected={i === current} className={i === current ? 'active' : ''}
              onMouseEnter={() => setActive(i)} onClick={() => go(entry)}>
              <span>{entry.label}</span><span className="muted small">{entry.hint}</span>
            </li>
          ))}
        </ul>
        <p className="muted small" aria-live="polite">{found.isFetching ? 'Searching…' : entries.length === 0 ? 'Nothing matches.' : `${entries.length} results`}</p>
      </div>
    </Modal>
  );
}

const typing = (target: EventTarget | null) =>
  target instanceof HTMLElement && (target.isContentEditable || ['INPUT', 'TEXTAREA', 'SELECT'].includes(target.tagName));

/** Ctrl/Cmd+K, `?`, and `g` then a section's letter. */
export function useShortcuts({ openPalette, openHelp }: { openPalette: () => void; openHelp: () => void }) {
  const navigate = useNavigate();
  const pendingG = useRef(0);
  useEffect(() => {
    function onKey(event: globalThis.KeyboardEvent) {
      if ((event.ctrlKey || event.metaKey) && event.key.toLowerCase() === 'k') {
        event.preventDefault();
        openPalette();
        return;
      }
      if (event.ctrlKey || event.metaKey || event.altKey || typing(event.target) || document.querySelector('[role="dialog"]')) return;
      if (event.key === '?') { event.preventDefault(); openHelp(); return; }
      if (event.key === 'g') { pendingG.current = Date.now(); return; }
      if (Date.now() - pendingG.current < 1500) {
        pendingG.current = 0;
        const item = NAV.find((n) => n.key === event.key);
        if (item) { event.preventDefault(); navigate(item.to); }
      }
    }
    document.addEventListener('keydown', onKey);
    return () => document.removeEventListener('keydown', onKey);
  }, [navigate, openPalette, openHelp]);
}

export function ShortcutHelp({ open, onOpenChange }: { open: boolean; onOpenChange: (open: boolean) => void }) {
  return (
    <Modal open={open} onOpenChange={onOpenChange} title="Keyboard shortcuts">
      <dl className="shortcuts">
        <div><dt><kbd>Ctrl</kbd> <kbd>K</kbd> or <kbd>⌘</kbd> <kbd>K</kbd></dt><dd>Jump to a page, product, order or member</dd></div>
        {NAV.map((n) => <div key={n.key}><dt><kbd>g</kbd> <kbd>{n.key}</kbd></dt><dd>{n.label}</dd></div>)}
        <div><dt><kbd>?</kbd></dt><dd>This list</dd></div>
        <div><dt><kbd>Esc</kbd></dt><dd>Close a dialog</dd></div>
      </dl>
    </Modal>
  );
}
