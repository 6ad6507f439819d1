import { useEffect, useId, useState, type FormEvent, type KeyboardEvent } from 'react';
import { useLocation, useNavigate } from '../router/Router.js';
import { Highlight } from './Highlight.js';
import { searchUrl, parseSearch, useSuggestions, SUGGEST_FROM } from './queries.js';
import './search.css';

interface Option {
  id: string;
  to: string;
  label: string;
  kind: 'Product' | 'Collection';
  render: React.ReactNode;
}

/** The header's search: a WAI-ARIA combobox whose list suggests products and collections as one types. */
export function SearchBox() {
  const navigate = useNavigate();
  const location = useLocation();
  const current = location.pathname === '/search' ? parseSearch(new URLSearchParams(location.search)).q : '';
  const [text, setText] = useState(current);
  const [typed, setTyped] = useState('');
  const [open, setOpen] = useState(false);
  const [active, setActive] = useState(-1);
  const listId = useId();
  useEffect(() => setText(current), [current]);
  // Ask for suggestions once typing pauses, not on every key.
  useEffect(() => {
    const timer = setTimeout(() => setTyped(text), 150);
    return () => clearTimeout(timer);
  }, [text]);
  const suggestions = useSuggestions(typed);
  const options: Option[] = !suggestions.data || typed.trim().length < SUGGEST_FROM ? [] : [
    ...suggestions.data.collections.map((c) => ({ id: `${listId}-c-${c._id}`, to: `/products?collection=${encodeURIComponent(c.slug)}`, label: c.name, kind: 'Collection' as const, render: c.name })),
    ...suggestions.data.products.map((h) => ({
      id: `${listId}-p-${h.product._id ?? ''}`, to: `/products/${h.product.slug ?? ''}`, label: h.product.name ?? '', kind: 'Product' as const,
      render: <Highlight parts={h.nameHighlight} fallback={h.product.name ?? ''} />,
    })),
  ];
  const expanded = open && options.length > 0;

  function go(to: string) {
    setOpen(false);
    setActive(-1);
    navigate(to);
  }
  function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    if (expanded && active >= 0) return go(options[active].to);
    go(searchUrl({ q: text.trim(), collections: [], options: {}, prices: [], brands: [], inStock: false, onSale: false, sort: '', page: 1 }));
  }
  function onKeyDown(event: KeyboardEvent<HTMLInputElement>) {
    if (event.key === 'ArrowDown' || event.key === 'ArrowUp') {
      event.preventDefault();
      if (!expanded) return setOpen(true);
      const step = event.key === 'ArrowDown' ? 1 : -1;
      // -1 is the text itself: the list wraps through it.
      setActive((i) => {
        const next = i + step;
        return next >= options.length ? -1 : next < -1 ? options.length - 1 : next;
      });
    } else if (event.key === 'Escape') {
      if (expanded) {
        event.preventDefault();
        setOpen(false);
        setActive(-1);
      } else setText('');
    }
  }
  const activeOption = expanded && active >= 0 && active < options.length ? options[active] : undefined;

  return (
    <form role="search" className="search search-combobox" action="/search" onSubmit={submit}>
      <label htmlFor="site-search" className="visually-hidden">Search products</label>
      <input
        id="site-search" name="q" type="search" placeholder="Search products" autoComplete="off"
        role="combobox" aria-autocomplete="list" aria-expanded={expanded} aria-controls={listId}
        aria-activedescendant={activeOption?.id}
        value={text}
        onChange={(e) => { setText(e.target.value); setOpen(true); setActive(-1); }}
        onKeyDown={onKeyDown}
        onFocus={() => setOpen(true)}
        onBlur={() => setOpen(false)}
      />
      <button type="submit" aria-label="Search">
        <svg aria-hidden="true" width="18" height="18" viewBox="0 0 24 24" fill="none" stroke="currentColor" strokeWidth="2"><circle cx="11" cy="11" r="7" /><path d="m20 20-3.5-3.5" /></svg>
      </button>
      <ul id={listId} role="listbox" aria-label="Suggestions" className="suggestions" hidden={!expanded}>
        {options.map((o, i) => (
          <li
            key={o.id} id={o.id} role="option" aria-selected={i === active}
            className={i === active ? 'suggestion active' : 'suggestion'}
            onMouseDown={(e) => e.preventDefault()}
            onClick={() => go(o.to)}
          >
            <span className="suggestion-label">{o.render}</span>
            <span className="suggestion-kind">{o.kind}</span>
          </li>
        ))}
      </ul>
      <span className="visually-hidden" role="status" aria-live="polite">
        {open && typed.trim().length >= SUGGEST_FROM && suggestions.data ? `${options.length} ${options.length === 1 ? 'suggestion' : 'suggestions'}` : ''}
      </span>
    </form>
  );
}
