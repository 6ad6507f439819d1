// Pictures of the demo store's products, drawn as SVG and served by this server under
// /media/demo/, so a fresh install shows a believable shop without any outside host.
// The demo products themselves are created through the API (src/demo-store/).

const SIZE = 800;

/** A still-life frame: a soft two-tone backdrop, a floor line and a shadow under the object. */
function frame(backdrop: [string, string], body: string, shadowWidth = 260): string {
  return `<svg xmlns="http://www.w3.org/2000/svg" width="${SIZE}" height="${SIZE}" viewBox="0 0 ${SIZE} ${SIZE}">
<defs>
<linearGradient id="bg" x1="0" y1="0" x2="0" y2="1"><stop offset="0" stop-color="${backdrop[0]}"/><stop offset="1" stop-color="${backdrop[1]}"/></linearGradient>
<linearGradient id="shade" x1="0" y1="0" x2="1" y2="0"><stop offset="0" stop-color="#fff" stop-opacity=".18"/><stop offset=".55" stop-color="#fff" stop-opacity="0"/><stop offset="1" stop-color="#000" stop-opacity=".16"/></linearGradient>
</defs>
<rect width="${SIZE}" height="${SIZE}" fill="url(#bg)"/>
<rect y="610" width="${SIZE}" height="190" fill="#000" opacity=".035"/>
<ellipse cx="400" cy="660" rx="${shadowWidth}" ry="26" fill="#000" opacity=".12"/>
${body}
</svg>
`;
}

function shirt(color: string, stitch: string): string {
  const outline = 'M250 190 L335 150 Q400 185 465 150 L550 190 L650 300 L585 360 L550 325 L550 640 L250 640 L250 325 L215 360 L150 300 Z';
  return frame(['#f6f3ee', '#ece6dc'], `<path d="${outline}" fill="${color}"/><path d="${outline}" fill="url(#shade)"/>
<path d="M335 150 L400 235 L465 150 L445 140 L400 200 L355 140 Z" fill="${stitch}" opacity=".55"/>
<line x1="400" y1="235" x2="400" y2="640" stroke="${stitch}" stroke-width="4" opacity=".6"/>
${[285, 345, 405, 465, 525, 585].map((y) => `<circle cx="412" cy="${y}" r="7" fill="${stitch}" opacity=".8"/>`).join('')}
<rect x="285" y="300" width="80" height="90" rx="6" fill="none" stroke="${stitch}" stroke-width="4" opacity=".5"/>`);
}

function sweater(color: string, rib: string): string {
  const outline = 'M255 190 Q330 160 345 160 Q400 200 455 160 Q470 160 545 190 L640 420 L640 560 L575 560 L555 330 L555 630 L245 630 L245 330 L225 560 L160 560 L160 420 Z';
  return frame(['#f3f1ec', '#e6e1d8'], `<path d="${outline}" fill="${color}"/><path d="${outline}" fill="url(#shade)"/>
<path d="M345 160 Q400 215 455 160" fill="none" stroke="${rib}" stroke-width="16"/>
<rect x="245" y="600" width="310" height="30" fill="${rib}"/>
<rect x="160" y="535" width="65" height="25" fill="${rib}"/><rect x="575" y="535" width="65" height="25" fill="${rib}"/>
${[280, 320, 360, 400, 440, 480, 520].map((x) => `<line x1="${x}" y1="600" x2="${x}" y2="630" stroke="${color}" stroke-width="3" opacity=".5"/>`).join('')}`);
}

function tote(): string {
  return frame(['#eef3ef', '#dfe8e1'], `<path d="M310 330 Q310 170 400 170 Q490 170 490 330" fill="none" stroke="#c9b48a" stroke-width="26" stroke-linecap="round"/>
<path d="M220 320 L580 320 L600 640 L200 640 Z" fill="#e9dcc0"/><path d="M220 320 L580 320 L600 640 L200 640 Z" fill="url(#shade)"/>
<rect x="330" y="430" width="140" height="90" rx="8" fill="#3d6b4f"/>
<text x="400" y="486" font-family="Georgia, serif" font-size="34" text-anchor="middle" fill="#f4efe2">bodega</text>`);
}

function mug(color: string, speckled: boolean): string {
  const dots = speckled
    ? Array.from({ length: 40 }, (_, i) => `<circle cx="${270 + ((i * 53) % 230)}" cy="${300 + ((i * 97) % 310)}" r="${2 + (i % 3)}" fill="#6b625a" opacity=".5"/>`).join('')
    : '';
  return frame(['#fbf1ea', '#f1e2d6'], `<path d="M500 340 Q610 340 610 445 Q610 550 500 550" fill="none" stroke="${color}" stroke-width="40"/>
<rect x="250" y="270" width="270" height="370" rx="34" fill="${color}"/><rect x="250" y="270" width="270" height="370" rx="34" fill="url(#shade)"/>
<ellipse cx="385" cy="275" rx="135" ry="18" fill="#000" opacity=".12"/>${dots}`, 200);
}

function coffeeBag(color: string, label: string, name: string, note: string): string {
  const beans = [[170, 625, -20], [225, 648, 15], [600, 630, 30], [650, 650, -10]]
    .map(([x, y, r]) => `<g transform="rotate(${r} ${x} ${y})"><ellipse cx="${x}" cy="${y}" rx="24" ry="16" fill="#4a2c1d"/><path d="M${x - 20} ${y} Q${x} ${y - 6} ${x + 20} ${y}" stroke="#2b170e" stroke-width="3" fill="none"/></g>`)
    .join('');
  return frame(['#f4ede4', '#e8dccd'], `<path d="M270 200 L530 200 L560 640 L240 640 Z" fill="${color}"/><path d="M270 200 L530 200 L560 640 L240 640 Z" fill="url(#shade)"/>
<rect x="270" y="185" width="260" height="30" fill="${color}"/>${[290, 330, 370, 410, 450, 490].map((x) => `<line x1="${x}" y1="187" x2="${x}" y2="213" stroke="#000" opacity=".15" stroke-width="4"/>`).join('')}
<circle cx="400" cy="265" r="14" fill="#000" opacity=".2"/>
<rect x="295" y="360" width="210" height="180" rx="10" fill="${label}"/>
<text x="400" y="430" font-family="Georgia, serif" font-size="30" text-anchor="middle" fill="#2b2118">${name}</text>
<text x="400" y="480" font-family="Helvetica, Arial, sans-serif" font-size="20" text-anchor="middle" fill="#5a4a3c">${note}</text>${beans}`);
}

function dripper(): string {
  return frame(['#eef1f4', '#dde3e9'], `<rect x="285" y="470" width="230" height="170" rx="26" fill="#f7f7f5"/><rect x="285" y="470" width="230" height="170" rx="26" fill="url(#shade)"/>
<path d="M240 250 L560 250 L450 440 L350 440 Z" fill="#d9a27a"/><path d="M240 250 L560 250 L450 440 L350 440 Z" fill="url(#shade)"/>
<rect x="320" y="440" width="160" height="28" rx="6" fill="#c98f66"/>
${[300, 360, 420, 480].map((x) => `<line x1="${x}" y1="262" x2="${400 + (x - 400) * 0.35}" y2="430" stroke="#b97d55" stroke-width="4"/>`).join('')}`, 180);
}

function giftCard(): string {
  return frame(['#f1eefa', '#e3ddf2'], `<g transform="rotate(-6 400 420)"><rect x="170" y="270" width="460" height="290" rx="26" fill="#2f3e5c"/>
<rect x="170" y="270" width="460" height="290" rx="26" fill="url(#shade)"/>
<rect x="470" y="270" width="36" height="290" fill="#e0b34a"/><rect x="170" y="395" width="460" height="36" fill="#e0b34a"/>
<text x="215" y="335" font-family="Georgia, serif" font-size="40" fill="#f6f1e7">Gift card</text>
<text x="215" y="520" font-family="Helvetica, Arial, sans-serif" font-size="24" fill="#c9d1e4">bodega · any amount</text></g>`, 240);
}

function beanie(): string {
  return frame(['#f2f0ee', '#e4e0dc'], `<circle cx="400" cy="205" r="52" fill="#d9d2c5"/>
<path d="M230 520 Q230 240 400 240 Q570 240 570 520 Z" fill="#a0473a"/><path d="M230 520 Q230 240 400 240 Q570 240 570 520 Z" fill="url(#shade)"/>
${[270, 310, 350, 390, 430, 470, 510].map((x) => `<line x1="${x}" y1="${300 - Math.abs(400 - x) * 0.2}" x2="${x}" y2="520" stroke="#8a3b30" stroke-width="6"/>`).join('')}
<rect x="215" y="505" width="370" height="110" rx="20" fill="#8f3e33"/>${[245, 285, 325, 365, 405, 445, 485, 525, 560].map((x) => `<line x1="${x}" y1="512" x2="${x}" y2="608" stroke="#7a342b" stroke-width="8"/>`).join('')}`);
}

function pins(): string {
  return frame(['#f7f2e7', '#ece3d0'], `<rect x="180" y="200" width="440" height="420" rx="20" fill="#fffdf8"/><rect x="180" y="200" width="440" height="420" rx="20" fill="url(#shade)"/>
<circle cx="300" cy="320" r="62" fill="#e0b34a" stroke="#9c7a2b" stroke-width="8"/><path d="M270 320 L295 345 L335 295" stroke="#fffdf8" stroke-width="12" fill="none" stroke-linecap="round"/>
<path d="M500 255 L525 310 L585 315 L540 352 L555 410 L500 380 L445 410 L460 352 L415 315 L475 310 Z" fill="#b5523b" stroke="#7d3527" stroke-width="6"/>
<rect x="250" y="450" width="120" height="120" rx="24" fill="#3d6b4f" stroke="#284a36" stroke-width="8"/><circle cx="310" cy="510" r="26" fill="#fffdf8"/>
<path d="M450 560 Q450 460 520 460 Q590 460 590 560 Z" fill="#34598a" stroke="#223d60" stroke-width="8"/>`, 240);
}

function teaTowel(): string {
  return frame(['#eef2f1', '#dee6e4'], `<rect x="385" y="120" width="30" height="60" rx="10" fill="#8c7b66"/>
<path d="M260 180 L540 180 L550 640 L250 640 Z" fill="#f3efe6"/><path d="M260 180 L540 180 L550 640 L250 640 Z" fill="url(#shade)"/>
${[230, 260, 560, 590].map((y) => `<rect x="255" y="${y}" width="292" height="14" fill="#4f7c8a"/>`).join('')}
${[300, 350, 400, 450, 500].map((x) => `<line x1="${x}" y1="300" x2="${x}" y2="540" stroke="#4f7c8a" stroke-width="3" opacity=".35"/>`).join('')}`, 200);
}

function notebook(): string {
  return frame(['#f5f3ef', '#e7e3dc'], `<rect x="250" y="170" width="310" height="450" rx="14" fill="#1f3a4d"/><rect x="250" y="170" width="310" height="450" rx="14" fill="url(#shade)"/>
<rect x="500" y="170" width="16" height="450" fill="#e0b34a"/><rect x="250" y="170" width="22" height="450" fill="#000" opacity=".18"/>
<rect x="300" y="250" width="160" height="70" rx="6" fill="#f5f3ef" opacity=".9"/>
<text x="380" y="295" font-family="Georgia, serif" font-size="26" text-anchor="middle" fill="#1f3a4d">Field notes</text>`, 200);
}

function brewGuide(): string {
  return frame(['#f6efe6', '#eadfce'], `<rect x="230" y="160" width="340" height="460" rx="10" fill="#fffaf2"/><rect x="230" y="160" width="340" height="460" rx="10" fill="url(#shade)"/>
<rect x="230" y="160" width="340" height="120" rx="10" fill="#8a4b2a"/>
<text x="400" y="232" font-family="Georgia, serif" font-size="34" text-anchor="middle" fill="#fffaf2">Brewing Guide</text>
<path d="M330 340 L470 340 L425 430 L375 430 Z" fill="#c9b48a"/><rect x="360" y="430" width="80" height="60" rx="8" fill="#8a4b2a" opacity=".8"/>
${[520, 550, 580].map((y) => `<line x1="280" y1="${y}" x2="520" y2="${y}" stroke="#8a4b2a" stroke-width="6" opacity=".25"/>`).join('')}
<text x="400" y="610" font-family="Helvetica, sans-serif" font-size="22" text-anchor="middle" fill="#8a4b2a">PDF</text>`, 200);
}

/** File name → SVG document. */
export const DEMO_MEDIA: Readonly<Record<string, string>> = {
  'linen-shirt-sand.svg': shirt('#d8c7a6', '#8a7555'),
  'linen-shirt-sage.svg': shirt('#a9b9a0', '#5e7356'),
  'linen-shirt-navy.svg': shirt('#2f4461', '#c9d3e0'),
  'merino-sweater-oat.svg': sweater('#d9cdb8', '#c3b59c'),
  'merino-sweater-charcoal.svg': sweater('#4a4c50', '#3a3c40'),
  'canvas-tote.svg': tote(),
  'stoneware-mug-white.svg': mug('#f2eee8', true),
  'stoneware-mug-charcoal.svg': mug('#3b3a3a', false),
  'house-espresso.svg': coffeeBag('#2b2b2b', '#e9dcc0', 'House Espresso', 'chocolate · hazelnut'),
  'ethiopia-yirgacheffe.svg': coffeeBag('#b5523b', '#f3ead8', 'Yirgacheffe', 'jasmine · bergamot'),
  'pour-over-dripper.svg': dripper(),
  'gift-card.svg': giftCard(),
  'wool-beanie.svg': beanie(),
  'enamel-pins.svg': pins(),
  'linen-tea-towel.svg': teaTowel(),
  'field-notebook.svg': notebook(),
  'brewing-guide.svg': brewGuide(),
};
