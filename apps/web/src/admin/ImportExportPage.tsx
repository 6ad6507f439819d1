import { useEffect, useState, type ChangeEvent } from 'react';
import type { ExportKind, ImportFormat, ImportJob, ImportTarget } from '@bodega/sdk';
import { Link } from '../router/Router.js';
import { Notice } from '../ui/Notice.js';
import { previewCsv, previewJson } from './csv.js';
import { useCsvExport, useDataCollections, useImportedInto, useImportFailures, useImportJob, useStartImport } from './queries.js';
import { PageHead, saveFile, Status, useResult } from './ui.js';

const JOB_KEY = 'bodega-admin-import-job';

export default function ImportExportPage() {
  return (
    <>
      <PageHead title="Import and export" lead="Bring products and data in from a spreadsheet, or take them out.">
        <Link to="/admin/import-export/orders" className="button secondary">Import orders</Link>
      </PageHead>
      <Import />
      <Export />
    </>
  );
}

function Export() {
  const result = useResult();
  const csv = useCsvExport();
  const busy = csv.isPending ? csv.variables.kind : null;
  function run(kind: ExportKind) {
    result.clear();
    csv.mutate({ kind }, { onSuccess: (blob) => { saveFile(`${kind}.csv`, blob); result.ok(`${kind}.csv is downloaded.`); }, onError: (error) => result.fail(error) });
  }
  return (
    <section className="panel" aria-labelledby="export-heading">
      <h2 id="export-heading">Export</h2>
      <p className="muted">CSV files that open in any spreadsheet; a products export can be imported back.</p>
      {result.view}
      <div className="actions">
        {(['products', 'orders', 'members'] as const).map((kind) => (
          <button key={kind} type="button" className="button secondary" disabled={busy !== null} onClick={() => run(kind)}>{busy === kind ? 'Exporting…' : `Export ${kind}`}</button>
        ))}
      </div>
    </section>
  );
}

function Import() {
  const imported = useImportedInto();
  const [target, setTarget] = useState<ImportTarget>('products');
  const [collection, setCollection] = useState('');
  const [file, setFile] = useState<{ name: string; format: ImportFormat; content: string } | null>(null);
  const [preview, setPreview] = useState<{ header: string[]; rows: string[][]; total: number } | null>(null);
  const [problem, setProblem] = useState<string | null>(null);
  // The job id survives a reload: the import runs on the server whether the tab stays open or not.
  const [jobId, setJobId] = useState<string | null>(() => (typeof window === 'undefined' ? null : window.localStorage.getItem(JOB_KEY)));
  const collections = useDataCollections(target === 'data-items');
  const job = useImportJob(jobId);
  const start = useStartImport();
  const failures = useImportFailures();
  const startImport = () => start.mutate({ target, format: file?.format ?? 'csv', content: file?.content ?? '', ...(target === 'data-items' && { dataCollectionId: collection }) }, {
    onSuccess: (res) => { window.localStorage.setItem(JOB_KEY, res.job.id); setJobId(res.job.id); },
  });
  const finished = job.data && (job.data.status === 'DONE' || job.data.status === 'FAILED') ? job.data : undefined;
  useEffect(() => {
    if (!finished) return;
    window.localStorage.removeItem(JOB_KEY);
    void imported(finished.target);
  }, [finished]);

  async function choose(event: ChangeEvent<HTMLInputElement>) {
    const chosen = event.target.files?.[0];
    setProblem(null);
    setPreview(null);
    setFile(null);
    if (!chosen) return;
    const content = await chosen.text();
    const format: ImportFormat = /\.json$/i.test(chosen.name) || content.trimStart().startsWith('[') ? 'json' : 'csv';
    try {
      setPreview(format === 'json' ? previewJson(content, 5) : previewCsv(content, 5));
      setFile({ name: chosen.name, format, content });
    } catch (error) {
      setProblem(error instanceof Error ? error.message : 'This file cannot be read.');
    }
  }
  function downloadFailures(j: ImportJob) {
    failures.mutate(j.id, { onSuccess: (blob) => saveFile(`import-${j.id}-failed-rows.csv`, blob) });
  }
  const j = job.data;
  // A products file has many columns a row leaves empty (options, variants): show the filled ones.
  // A product's name and its variants' choices come first, so the variant rows read at a glance.
  const rank = (name: string) => (target !== 'products' ? 0 : name === 'name' ? -3 : /^option\dValue$/.test(name) ? -2 : /^(price|variantPrice)$/.test(name) ? -1 : 0);
  const shown = preview
    ? preview.header.map((_, k) => k).filter((k) => preview.rows.some((r) => (r[k] ?? '') !== '')).sort((a, b) => rank(preview.header[a]) - rank(preview.header[b]) || a - b)
    : [];
  const hidden = preview ? preview.header.length - shown.length : 0;
  return (
    <section className="panel" aria-labelledby="import-heading">
      <h2 id="import-heading">Import</h2>
      <div className="two">
        <div className="field">
          <label htmlFor="import-target">What</label>
          <select id="import-target" value={target} onChange={(e) => setTarget(e.target.value as ImportTarget)}>
            <option value="products">Products</option><option value="data-items">Items of a data collection</option>
          </select>
        </div>
        {target === 'data-items' && (
          <div className="field">
            <label htmlFor="import-collection">Collection</label>
            <select id="import-collection" value={collection} onChange={(e) => setCollection(e.target.value)}>
              <option value="">Choose…</option>
              {(collections.data?.collections ?? []).map((c) => <option key={c._id} value={c._id}>{c.displayName || c._id}</option>)}
            </select>
          </div>
        )}
      </div>
      <div className="field">
        <label htmlFor="import-file">CSV or JSON file</label>
        <input id="import-file" type="file" accept=".csv,.json,text/csv,application/json" onChange={(e) => void choose(e)} aria-describedby="import-hint" />
        <p id="import-hint" className="hint">{target === 'products'
          ? 'The columns of a products export; the first row names them. A product with options has one row per variant (option1Name, option1Value, variantPrice, variantQuantity…).'
          : 'One column per field key; the first row names them.'}</p>
      </div>
      {problem && <Notice kind="error">{problem}</Notice>}
      {preview && file && (
        <>
          <p className="preview-note"><strong>{file.name}</strong>: {preview.total} rows. The first {preview.rows.length}{hidden > 0 ? `, without the ${hidden} columns they leave empty` : ''}:</p>
          {/* Any number of columns: it scrolls sideways, so the keyboard must reach it too. */}
          <div className="table-wrap" tabIndex={0} role="region" aria-label="Preview of the first rows">
            <table className="table">
              <caption className="visually-hidden">Preview of the first rows</caption>
              <thead><tr><th scope="col">Row</th>{shown.map((k) => <th key={k} scope="col">{preview.header[k]}</th>)}</tr></thead>
              <tbody>{preview.rows.map((r, i) => <tr key={i}><td>{i + 1}</td>{shown.map((k) => <td key={k} className="truncate">{r[k] ?? ''}</td>)}</tr>)}</tbody>
            </table>
          </div>
          <div className="actions">
            <button type="button" className="button" disabled={start.isPending || (target === 'data-items' && !collection) || (j !== undefined && (j.status === 'QUEUED' || j.status === 'RUNNING'))} onClick={startImport}>
              {start.isPending ? 'Starting…' : `Import ${preview.total} rows`}
            </button>
          </div>
        </>
      )}
      {start.isError && <Notice kind="error">{start.error instanceof Error ? start.error.message : 'The import did not start.'}</Notice>}
      {j && (
        <div className="import-job" aria-labelledby="job-heading">
          <h3 id="job-heading">Import {j.target === 'products' ? 'of products' : 'of items'} <Status value={j.status} /></h3>
          <label htmlFor="job-progress" className="visually-hidden">Import progress</label>
          <progress id="job-progress" className="progress" max={Math.max(1, j.total)} value={j.processed} />
          <p role="status">{j.processed} of {j.total} rows read: {j.succeeded} imported, {j.failed} failed.{j.error ? ` ${j.error}` : ''}</p>
          {j.failed > 0 && (j.status === 'DONE' || j.status === 'FAILED') && (
            <button type="button" className="button secondary small" onClick={() => downloadFailures(j)}>Download the {j.failed} failed rows</button>
          )}
        </div>
      )}
    </section>
  );
}
