// The demo's downloadable product, drawn at seed time: a one-page PDF (PDF 1.4, the standard
// Helvetica font, no images), so the repository holds no binary file and the download is real.

const LINES: readonly (readonly [size: number, text: string])[] = [
  [24, 'Slow Brew Recipe Guide'],
  [12, 'From the Bodega demo store'],
  [12, ''],
  [14, 'The recipe'],
  [11, '15 g of coffee, ground like coarse sea salt, to 250 g of water at 94 C.'],
  [11, 'Rinse the paper filter with hot water, then pour it away.'],
  [11, 'Bloom: pour 40 g of water, wait 30 seconds.'],
  [11, 'Pour the rest in slow circles until 2:30; the bed should drain by 3:30.'],
  [12, ''],
  [14, 'If it tastes'],
  [11, 'Sour or thin: grind finer, or use water a little hotter.'],
  [11, 'Bitter or dry: grind coarser, or pour faster.'],
  [12, ''],
  [14, 'Brew log'],
  [11, 'Date ______  Coffee ____________  Grind ____  Time ____  Notes ____________'],
  [11, 'Date ______  Coffee ____________  Grind ____  Time ____  Notes ____________'],
];

/** Text for a PDF string literal: backslash and parentheses escaped, ASCII only. */
function pdfText(text: string): string {
  return text.replace(/[^\x20-\x7e]/g, '?').replace(/([\\()])/g, '\\$1');
}

export function brewingGuidePdf(): Buffer {
  let y = 770;
  const content = ['BT', ...LINES.flatMap(([size, text]) => {
    const line = [`/F1 ${size} Tf`, `1 0 0 1 60 ${y} Tm`, `(${pdfText(text)}) Tj`];
    y -= size + 10;
    return line;
  }), 'ET'].join('\n');
  const objects = [
    '<< /Type /Catalog /Pages 2 0 R >>',
    '<< /Type /Pages /Kids [3 0 R] /Count 1 >>',
    '<< /Type /Page /Parent 2 0 R /MediaBox [0 0 595 842] /Resources << /Font << /F1 4 0 R >> >> /Contents 5 0 R >>',
    '<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>',
    `<< /Length ${Buffer.byteLength(content)} >>\nstream\n${content}\nendstream`,
  ];
  let body = '%PDF-1.4\n';
  const offsets: number[] = [];
  objects.forEach((object, i) => {
    offsets.push(Buffer.byteLength(body));
    body += `${i + 1} 0 obj\n${object}\nendobj\n`;
  });
  const xref = Buffer.byteLength(body);
  body += `xref\n0 ${objects.length + 1}\n0000000000 65535 f \n${offsets.map((o) => `${String(o).padStart(10, '0')} 00000 n \n`).join('')}`;
  body += `trailer\n<< /Size ${objects.length + 1} /Root 1 0 R >>\nstartxref\n${xref}\n%%EOF\n`;
  return Buffer.from(body, 'latin1');
}
