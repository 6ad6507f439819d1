// A PDF's text as a reader sees it (pdf.js, the library browsers use): each page's text items in
// drawing order, joined by spaces, pages by new lines. For tests that check what a PDF says.
import { createRequire } from 'node:module';
import path from 'node:path';
import { getDocument } from 'pdfjs-dist/legacy/build/pdf.mjs';

/** The standard fonts' metrics (Helvetica…), which pdf.js reads from its own package in Node. */
const STANDARD_FONTS = `${path.join(path.dirname(createRequire(import.meta.url).resolve('pdfjs-dist/package.json')), 'standard_fonts')}/`;

export async function pdfText(bytes: Buffer | Uint8Array): Promise<string> {
  const pdf = await getDocument({ data: new Uint8Array(bytes), isEvalSupported: false, useSystemFonts: false, standardFontDataUrl: STANDARD_FONTS }).promise;
  const pages: string[] = [];
  for (let n = 1; n <= pdf.numPages; n++) {
    const content = await (await pdf.getPage(n)).getTextContent();
    pages.push(content.items.map((item) => ('str' in item ? item.str : '')).filter((s) => s.trim() !== '').join(' '));
  }
  await pdf.destroy();
  return pages.join('\n');
}
