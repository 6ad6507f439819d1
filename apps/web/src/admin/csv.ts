/**
 * The first rows of a CSV file for the import preview (RFC 4180: quoted fields, doubled quotes,
 * line breaks inside quotes). The server parses the whole file; this only shows what it will read.
 */
export function previewCsv(text: string, maxRows: number): { header: string[]; rows: string[][]; total: number } {
  const records: string[][] = [];
  let field = '';
  let record: string[] = [];
  let quoted = false;
  let count = 0;
  for (let i = 0; i < text.length; i++) {
    const ch = text[i];
    if (quoted) {
      if (ch === '"' && text[i + 1] === '"') { field += '"'; i++; }
      else if (ch === '"') quoted = false;
      else field += ch;
    } else if (ch === '"') quoted = true;
    else if (ch === ',') { record.push(field); field = ''; }
    else if (ch === '\n' || ch === '\r') {
      if (ch === '\r' && text[i + 1] === '\n') i++;
      record.push(field);
      field = '';
      if (record.some((f) => f !== '')) { count++; if (records.length <= maxRows) records.push(record); }
      record = [];
    } else field += ch;
  }
  record.push(field);
  if (record.some((f) => f !== '')) { count++; if (records.length <= maxRows) records.push(record); }
  const [header = [], ...rows] = records;
  return { header, rows, total: Math.max(0, count - 1) };
}

/** The first rows of a JSON array of objects, in the same shape. */
export function previewJson(text: string, maxRows: number): { header: string[]; rows: string[][]; total: number } {
  const data = JSON.parse(text) as unknown;
  if (!Array.isArray(data)) throw new Error('The file must hold a JSON array of objects');
  const objects = data.filter((d): d is Record<string, unknown> => typeof d === 'object' && d !== null);
  const header = [...new Set(objects.slice(0, maxRows).flatMap((o) => Object.keys(o)))];
  const rows = objects.slice(0, maxRows).map((o) => header.map((h) => (typeof o[h] === 'object' ? JSON.stringify(o[h]) : String(o[h] ?? ''))));
  return { header, rows, total: data.length };
}
