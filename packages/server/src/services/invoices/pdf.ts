// The invoice as a PDF (pdfkit, pure JavaScript): the store and the buyer with their tax ids, the
// lines, discounts, shipping, fees, the tip, one line per tax rate and the totals, each amount formatted in the
// order's currency from its exact minor units. The standard Helvetica font covers Latin text
// (WinAnsi); other scripts would need an embedded font.
import PDFDocument from 'pdfkit';
import { formattedAmount } from '../../platform/money.js';
import { summaryRows, type InvoiceDocument, type Party } from './model.js';

const MARGIN = 50;
const PAGE_WIDTH = 595.28; // A4
const PAGE_HEIGHT = 841.89;
const CONTENT = PAGE_WIDTH - 2 * MARGIN;
/** Table columns: item, quantity, unit price, discount, tax, amount (x and width). */
const COLUMNS = [
  { x: MARGIN, width: 205, align: 'left' as const },
  { x: MARGIN + 205, width: 35, align: 'right' as const },
  { x: MARGIN + 240, width: 70, align: 'right' as const },
  { x: MARGIN + 310, width: 65, align: 'right' as const },
  { x: MARGIN + 375, width: 55, align: 'right' as const },
  { x: MARGIN + 430, width: CONTENT - 430, align: 'right' as const },
];

export interface PdfInput {
  invoiceNumber: string;
  issuedDate: Date;
  dueDate: Date | null;
  doc: InvoiceDocument;
  /** Printed under the title when the invoice no longer stands. */
  stamp?: 'VOID' | 'DELETED';
}

function money(minor: string, currency: string): string {
  return formattedAmount(BigInt(minor), currency);
}

function taxIdLine(party: Party): string | undefined {
  return party.taxId ? `${party.taxId.type}: ${party.taxId.id}` : undefined;
}

function partyLines(party: Party): string[] {
  return [party.company, ...party.addressLines, party.email, party.phone, taxIdLine(party)].filter((l): l is string => Boolean(l));
}

/** Renders the invoice; resolves with the PDF's bytes. */
export function renderInvoicePdf(input: PdfInput): Promise<Buffer> {
  const { doc: invoice, invoiceNumber } = input;
  const currency = invoice.currency;
  const pdf = new PDFDocument({
    size: 'A4',
    margin: MARGIN,
    info: { Title: `Invoice ${invoiceNumber}`, Author: invoice.seller.name, CreationDate: input.issuedDate },
  });
  const chunks: Buffer[] = [];
  const done = new Promise<Buffer>((resolve, reject) => {
    pdf.on('data', (chunk: Buffer) => chunks.push(chunk));
    pdf.on('end', () => resolve(Buffer.concat(chunks)));
    pdf.on('error', reject);
  });

  // Seller on the left, the invoice's number and dates on the right.
  pdf.font('Helvetica-Bold').fontSize(18).text(invoice.seller.name, MARGIN, MARGIN, { width: CONTENT / 2 });
  pdf.font('Helvetica').fontSize(9);
  for (const line of partyLines(invoice.seller)) pdf.text(line, { width: CONTENT / 2 });
  const leftBottom = pdf.y;
  pdf.font('Helvetica-Bold').fontSize(18).text('INVOICE', MARGIN + CONTENT / 2, MARGIN, { width: CONTENT / 2, align: 'right' });
  if (input.stamp) pdf.font('Helvetica-Bold').fontSize(14).fillColor('#b00020').text(input.stamp, MARGIN + CONTENT / 2, pdf.y, { width: CONTENT / 2, align: 'right' }).fillColor('black');
  pdf.font('Helvetica').fontSize(9);
  const due = input.dueDate ? [`Due date: ${input.dueDate.toISOString().slice(0, 10)}`] : [];
  for (const line of [`Invoice number: ${invoiceNumber}`, `Date: ${input.issuedDate.toISOString().slice(0, 10)}`, ...due, `Order: #${invoice.orderNumber}`]) {
    pdf.text(line, MARGIN + CONTENT / 2, pdf.y, { width: CONTENT / 2, align: 'right' });
  }
  let y = Math.max(leftBottom, pdf.y) + 20;

  // Bill to, and ship to where the delivery goes elsewhere.
  const parties: [string, Party][] = [['Bill to', invoice.buyer], ...(invoice.shipTo ? [['Ship to', invoice.shipTo] as [string, Party]] : [])];
  let partiesBottom = y;
  parties.forEach(([title, party], i) => {
    const x = MARGIN + i * (CONTENT / 2);
    pdf.font('Helvetica-Bold').fontSize(10).text(title, x, y, { width: CONTENT / 2 - 10 });
    pdf.font('Helvetica').fontSize(9).text(party.name, { width: CONTENT / 2 - 10 });
    for (const line of partyLines(party)) pdf.text(line, { width: CONTENT / 2 - 10 });
    partiesBottom = Math.max(partiesBottom, pdf.y);
  });
  y = partiesBottom + 20;

  const row = (cells: string[], bold = false) => {
    pdf.font(bold ? 'Helvetica-Bold' : 'Helvetica').fontSize(9);
    const heights = cells.map((cell, i) => pdf.heightOfString(cell, { width: COLUMNS[i].width - 4 }));
    const height = Math.max(...heights);
    if (y + height > PAGE_HEIGHT - MARGIN) {
      pdf.addPage();
      y = MARGIN;
    }
    cells.forEach((cell, i) => pdf.text(cell, COLUMNS[i].x, y, { width: COLUMNS[i].width - 4, align: COLUMNS[i].align }));
    y += height + 4;
  };
  row(['Item', 'Qty', 'Unit price', 'Discount', 'Tax', 'Amount'], true);
  pdf.moveTo(MARGIN, y - 2).lineTo(MARGIN + CONTENT, y - 2).lineWidth(0.5).stroke();
  for (const line of invoice.lines) {
    const name = [line.name, ...line.details].join('\n');
    row([name, String(line.quantity), money(line.unitPrice, currency), line.discount === '0' ? '' : `-${money(line.discount, currency)}`, money(line.tax, currency), money(line.total, currency)]);
  }
  pdf.moveTo(MARGIN, y).lineTo(MARGIN + CONTENT, y).lineWidth(0.5).stroke();
  y += 8;

  // Totals, right-aligned under the amount column.
  const total = (label: string, amount: string, bold = false) => {
    if (y + 14 > PAGE_HEIGHT - MARGIN) {
      pdf.addPage();
      y = MARGIN;
    }
    pdf.font(bold ? 'Helvetica-Bold' : 'Helvetica').fontSize(bold ? 11 : 9);
    pdf.text(label, MARGIN + CONTENT / 2, y, { width: CONTENT / 2 - 100, align: 'right' });
    pdf.text(amount, MARGIN + CONTENT - 100, y, { width: 100, align: 'right' });
    y += bold ? 16 : 13;
  };
  // Subtotal, discounts, shipping, each fee, the tip and each tax line: the rows that add up to the total.
  for (const row of summaryRows(invoice)) {
    const amount = formattedAmount(row.amount < 0n ? -row.amount : row.amount, currency);
    total(`${row.name}${row.addsToTotal ? '' : ' (included)'}`, row.amount < 0n ? `-${amount}` : amount);
  }
  total('Total', money(invoice.totals.total, currency), true);
  total('Paid', money(invoice.totals.paid, currency));
  total('Balance due', money(invoice.totals.due, currency), true);

  pdf.end();
  return done;
}
