import { useState, type ChangeEvent, type FormEvent } from 'react';
import type { ImportFormat, OrderImportAnswer, OrderImportResult } from '@bodega/sdk';
import { Link } from '../../router/Router.js';
import { plainError } from '../../shop/errors.js';
import { Notice } from '../../ui/Notice.js';
import { PageHead } from '../ui.js';
import { saveFile } from '../../ui/save-file.js';
import { useImportOrders, useOrderImportFailures } from './queries.js';
import { reasonLabel } from './reasons.js';

const OUTCOMES: Record<OrderImportResult['status'], string> = {
  IMPORTED: 'Imported', ALREADY_IMPORTED: 'Already imported', REPLACED: 'Replaced', FAILED: 'Refused',
};

export default function OrderImportPage() {
  const [file, setFile] = useState<{ name: string; format: ImportFormat; content: string } | null>(null);
  const importOrders = useImportOrders();

  async function choose(event: ChangeEvent<HTMLInputElement>) {
    importOrders.reset();
    const chosen = event.target.files?.[0];
    if (!chosen) {
      setFile(null);
      return;
    }
    const content = await chosen.text();
    setFile({ name: chosen.name, content, format: /\.json$/i.test(chosen.name) || content.trimStart().startsWith('[') ? 'json' : 'csv' });
  }
  function submit(event: FormEvent) {
    event.preventDefault();
    if (file) importOrders.mutate({ format: file.format, content: file.content });
  }

  return (
    <>
      <PageHead title="Import orders" lead="Orders from another platform, kept for history and reports: importing takes no stock and sends no e-mail." />
      <section className="panel" aria-labelledby="order-file-heading">
        <h2 id="order-file-heading">Order file</h2>
        <form className="order-import-form" onSubmit={submit}>
          <div className="field">
            <label htmlFor="order-file">CSV or JSON file</label>
            <input id="order-file" type="file" accept=".csv,.json,text/csv,application/json" onChange={(e) => void choose(e)} aria-describedby="order-file-hint" />
            <p id="order-file-hint" className="hint">
              A CSV has one row per line item: orderId, source (WEB, POS, EBAY, AMAZON, OTHER_PLATFORM), currency, paymentStatus, subtotal, total, lineName,
              lineQuantity, linePrice and more; a JSON file is a list of orders as the importOrder call takes them. An order already imported is not imported twice.
            </p>
          </div>
          <div className="actions">
            <button type="submit" className="button" disabled={!file || importOrders.isPending}>{importOrders.isPending ? 'Importing…' : 'Import orders'}</button>
            <Link to="/admin/import-export" className="button secondary">Back to import and export</Link>
          </div>
        </form>
        {importOrders.isError && <Notice kind="error">{plainError(importOrders.error)}</Notice>}
      </section>
      {importOrders.data && file && <Results name={file.name} answer={importOrders.data} />}
    </>
  );
}

function Results({ name, answer }: { name: string; answer: OrderImportAnswer }) {
  const failures = useOrderImportFailures();
  const download = () => failures.mutate(answer.importId, { onSuccess: (blob) => saveFile(`${name.replace(/\.(csv|json)$/i, '')}-refused-orders.csv`, blob) });
  return (
    <section className="panel" aria-labelledby="order-results-heading">
      <h2 id="order-results-heading">Results for {name}</h2>
      <p role="status">
        {answer.imported} imported, {answer.alreadyImported} already imported before, {answer.failed} refused.
      </p>
      {answer.failed > 0 && (
        <>
          <p id="order-failures-hint" className="hint">The refused orders&apos; rows as sent, each with its reason: fix them and import that file again.</p>
          <div className="actions">
            <button type="button" className="button secondary" onClick={download} disabled={failures.isPending} aria-describedby="order-failures-hint">
              {failures.isPending ? 'Preparing…' : 'Download refused orders (CSV)'}
            </button>
          </div>
        </>
      )}
      {failures.isError && <Notice kind="error">{plainError(failures.error)}</Notice>}
      <div className="table-wrap" tabIndex={0} role="region" aria-label="One result per order of the file">
        <table className="table order-import-results">
          <caption className="visually-hidden">One result per order of the file</caption>
          <thead>
            <tr><th scope="col">Rows</th><th scope="col">Order in the file</th><th scope="col">Result</th><th scope="col">Order here</th><th scope="col">Reason</th></tr>
          </thead>
          <tbody>
            {answer.results.map((r) => (
              <tr key={`${r.rows.join('-')}`}>
                <td>{r.rows.join(', ')}</td>
                <td>{r.externalOrderId ?? '—'}</td>
                <td><span className={`status status-${r.status === 'FAILED' ? 'bad' : 'ok'}`} data-status={r.status}>{OUTCOMES[r.status]}</span></td>
                <td>{r.orderId ? <Link to={`/admin/orders/${r.orderId}`}>#{r.number}</Link> : '—'}</td>
                <td className="reason">{r.code ? <><strong>{reasonLabel(r.code)}</strong>{r.message ? `: ${r.message}` : ''}</> : ''}</td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
    </section>
  );
}
