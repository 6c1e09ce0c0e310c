// Generates the illustrative onboarding images (slides 2-5) per language into
// src/assets/onboarding/{en,de}/slide-N.svg. Run: node scripts/onboarding-images.mjs
// They depict the product's areas with labels in each language; screenshots may replace them.
import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..', 'src', 'assets', 'onboarding');

const L = {
  en: {
    dashboard: 'Dashboard', statusboard: 'Statusboard', productivity: 'Productivity analysis', failures: 'Failure analysis',
    availability: 'Availability', utilization: 'Utilization', throughput: 'Throughput', orders: 'Orders',
    cycle: 'Cycle time p50', mtbf: 'MTBF', perHour: '/h', vsPrev: 'vs. previous week',
    working: 'Working', idle: 'Idle', charging: 'Charging', error: 'Error', offline: 'Offline',
    order: 'Order', week: 'Week', machines: 'All machines', shift: 'Early shift', combined: 'Combined',
    layout: 'Error positions on the layout', pareto: 'Top errors by downtime',
    errs: ['Obstacle detected', 'Lost localisation', 'Load not found', 'Battery low', 'Drive fault'],
    beta: 'Beta', hours: 'h', minutes: 'min', live: 'Live',
  },
  de: {
    dashboard: 'Dashboard', statusboard: 'Statusboard', productivity: 'Produktivitätsanalyse', failures: 'Störungsanalyse',
    availability: 'Verfügbarkeit', utilization: 'Auslastung', throughput: 'Durchsatz', orders: 'Aufträge',
    cycle: 'Durchlaufzeit p50', mtbf: 'MTBF', perHour: '/h', vsPrev: 'ggü. Vorwoche',
    working: 'Arbeitet', idle: 'Leerlauf', charging: 'Lädt', error: 'Störung', offline: 'Offline',
    order: 'Auftrag', week: 'Woche', machines: 'Alle Maschinen', shift: 'Frühschicht', combined: 'Kombiniert',
    layout: 'Störungspositionen im Layout', pareto: 'Top-Störungen nach Ausfallzeit',
    errs: ['Hindernis erkannt', 'Lokalisierung verloren', 'Ladung nicht gefunden', 'Batterie schwach', 'Antriebsfehler'],
    beta: 'Beta', hours: 'h', minutes: 'min', live: 'Live',
  },
};

const C = {
  nav: '#0b1726', page: '#f4f6f9', card: '#ffffff', border: '#e3e8ef', text: '#1b2636', dim: '#6b7a8c',
  brand: '#059683', brandLight: '#cdf3ee', working: '#14a994', idle: '#9aa7b6', charging: '#3b82f6',
  error: '#e03131', offline: '#495057', up: '#2f9e44', down: '#e03131', orange: '#f08c00',
};

const num = (lang, value, digits = 1) =>
  new Intl.NumberFormat(lang === 'de' ? 'de-DE' : 'en-GB', { minimumFractionDigits: digits, maximumFractionDigits: digits }).format(value);
const esc = (s) => s.replace(/&/g, '&amp;').replace(/</g, '&lt;');
const text = (x, y, s, { size = 14, weight = 400, fill = C.text, anchor = 'start' } = {}) =>
  `<text x="${x}" y="${y}" font-size="${size}" font-weight="${weight}" fill="${fill}" text-anchor="${anchor}">${esc(s)}</text>`;
const card = (x, y, w, h) => `<rect x="${x}" y="${y}" width="${w}" height="${h}" rx="12" fill="${C.card}" stroke="${C.border}"/>`;

function frame(title, body, { beta = false, lang }) {
  const icons = [0, 1, 2, 3, 4]
    .map((i) => `<rect x="18" y="${92 + i * 56}" width="32" height="32" rx="8" fill="${i === 0 ? '#16263b' : 'none'}" stroke="${i === 0 ? C.brand : '#3a4a60'}" stroke-width="2"/>`)
    .join('');
  const badge = beta
    ? `<rect x="${106 + title.length * 13.5}" y="32" width="44" height="20" rx="10" fill="#fff4e6"/>${text(128 + title.length * 13.5, 46, L[lang].beta, { size: 11, weight: 700, fill: C.orange, anchor: 'middle' })}`
    : '';
  return `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 960 540" width="960" height="540" font-family="Inter, 'Segoe UI', system-ui, sans-serif">
<rect width="960" height="540" rx="18" fill="${C.page}"/>
<path d="M18 0 H68 V540 H18 A18 18 0 0 1 0 522 V18 A18 18 0 0 1 18 0 Z" fill="${C.nav}"/>
<circle cx="34" cy="42" r="14" fill="none" stroke="#27c4ae" stroke-width="3"/><circle cx="34" cy="42" r="4" fill="#fff"/>
${icons}
${text(96, 50, title, { size: 22, weight: 700 })}${badge}
${body}
</svg>
`;
}

function dashboard(lang) {
  const l = L[lang];
  const tiles = [
    [l.availability, `${num(lang, 94.2)} %`, '+1,8', true],
    [l.utilization, `${num(lang, 71.5)} %`, '+3,1', true],
    [l.throughput, `${num(lang, 42.7)}${l.perHour}`, '+2,4', true],
    [l.orders, new Intl.NumberFormat(lang === 'de' ? 'de-DE' : 'en-GB').format(7184), '+5,0', true],
    [l.cycle, `${num(lang, 6.4)} ${l.minutes}`, '−0,6', true],
    [l.mtbf, `${num(lang, 38.5)} ${l.hours}`, '−4,2', false],
  ];
  let body = '';
  tiles.forEach(([label, value, delta, good], i) => {
    const x = 96 + (i % 3) * 284;
    const y = 80 + Math.floor(i / 3) * 150;
    const d = lang === 'de' ? delta : delta.replace(',', '.');
    body += card(x, y, 268, 134);
    body += text(x + 20, y + 32, label, { size: 14, fill: C.dim, weight: 600 });
    body += text(x + 20, y + 74, value, { size: 28, weight: 700 });
    body += text(x + 20, y + 110, `${good ? '▲' : '▼'} ${d} % ${l.vsPrev}`, { size: 13, fill: good ? C.up : C.down, weight: 600 });
    const pts = Array.from({ length: 8 }, (_, k) => `${x + 170 + k * 12},${y + 62 - ((k * 7 + i * 5) % 19) - (good ? k * 2 : -k)}`).join(' ');
    body += `<polyline points="${pts}" fill="none" stroke="${good ? C.brand : C.down}" stroke-width="2.5" stroke-linejoin="round"/>`;
  });
  body += card(96, 384, 836, 136);
  const bars = Array.from({ length: 24 }, (_, h) => {
    const v = 20 + ((h * 37) % 60) + (h > 5 && h < 22 ? 25 : 0);
    return `<rect x="${120 + h * 33}" y="${500 - v}" width="20" height="${v}" rx="4" fill="${h > 5 && h < 22 ? C.brand : C.brandLight}"/>`;
  }).join('');
  body += text(116, 410, `${l.throughput} · 24 ${l.hours}`, { size: 13, fill: C.dim, weight: 600 }) + bars;
  return frame(l.dashboard, body, { beta: true, lang });
}

function statusboard(lang) {
  const l = L[lang];
  const counts = [[l.working, 8, C.working], [l.idle, 3, C.idle], [l.charging, 2, C.charging], [l.error, 1, C.error]];
  const liveX = 106 + l.statusboard.length * 13.5 + 60;
  let body = `<circle cx="${liveX}" cy="42" r="6" fill="${C.error}"/>${text(liveX + 12, 47, l.live, { size: 13, weight: 700, fill: C.error })}`;
  counts.forEach(([label, n, color], i) => {
    const x = 96 + i * 211;
    body += card(x, 76, 195, 64) + `<rect x="${x}" y="76" width="6" height="64" rx="3" fill="${color}"/>`;
    body += text(x + 22, 116, String(n), { size: 26, weight: 700 }) + text(x + 58, 114, label, { size: 15, fill: C.dim, weight: 600 });
  });
  const states = [C.working, C.working, C.idle, C.charging, C.working, C.error, C.working, C.working, C.idle, C.working, C.charging, C.working];
  states.forEach((color, i) => {
    const x = 96 + (i % 4) * 211;
    const y = 160 + Math.floor(i / 4) * 122;
    const charge = 25 + ((i * 29) % 70);
    body += card(x, y, 195, 108) + `<rect x="${x}" y="${y}" width="195" height="8" rx="4" fill="${color}"/>`;
    body += text(x + 16, y + 36, `AGV-${String(i + 1).padStart(2, '0')}`, { size: 16, weight: 700 });
    body += text(x + 16, y + 60, color === C.error ? l.errs[0] : `${l.order} TRANSPORT_${'ABC'[i % 3]}-${1200 + i * 7}`, { size: 12, fill: color === C.error ? C.error : C.dim });
    body += `<rect x="${x + 16}" y="${y + 76}" width="120" height="10" rx="5" fill="#e9ecef"/><rect x="${x + 16}" y="${y + 76}" width="${(120 * charge) / 100}" height="10" rx="5" fill="${charge < 30 ? C.orange : C.brand}"/>`;
    body += text(x + 146, y + 86, `${charge} %`, { size: 12, weight: 600, fill: C.dim });
  });
  return frame(l.statusboard, body, { beta: true, lang });
}

function productivity(lang) {
  const l = L[lang];
  const chips = [l.week, l.machines, l.shift, l.combined];
  let body = '';
  let x = 96;
  for (const chip of chips) {
    const w = chip.length * 8 + 36;
    body += `<rect x="${x}" y="72" width="${w}" height="34" rx="8" fill="#fff" stroke="${C.border}"/>` + text(x + w / 2, 94, chip, { size: 13, anchor: 'middle', weight: 600 });
    x += w + 10;
  }
  body += card(96, 122, 600, 398);
  const states = [[l.working, C.working], [l.idle, C.idle], [l.charging, C.charging], [l.error, C.error], [l.offline, C.offline]];
  for (let v = 0; v < 7; v += 1) {
    const shares = [0.55 + ((v * 7) % 15) / 100, 0.17, 0.12, 0.04 + (v % 3) / 100, 0.05];
    let y = 470;
    shares.forEach((share, s) => {
      const h = share * 250;
      y -= h;
      body += `<rect x="${136 + v * 76}" y="${y}" width="44" height="${h}" fill="${states[s][1]}"/>`;
    });
    body += text(158 + v * 76, 494, `AGV-0${v + 1}`, { size: 11, anchor: 'middle', fill: C.dim });
  }
  states.forEach(([label, color], i) => {
    body += `<rect x="${120 + i * 112}" y="142" width="12" height="12" rx="3" fill="${color}"/>` + text(138 + i * 112, 153, label, { size: 12, fill: C.dim });
  });
  const kpis = [[l.availability, `${num(lang, 94.2)} %`], [l.utilization, `${num(lang, 71.5)} %`], [l.throughput, `${num(lang, 42.7)}${l.perHour}`]];
  kpis.forEach(([label, value], i) => {
    const y = 122 + i * 136;
    body += card(712, y, 220, 122) + text(732, y + 36, label, { size: 14, fill: C.dim, weight: 600 }) + text(732, y + 80, value, { size: 26, weight: 700 });
  });
  return frame(l.productivity, body, { lang });
}

function failures(lang) {
  const l = L[lang];
  let body = card(96, 76, 500, 444) + text(116, 104, l.layout, { size: 14, weight: 600, fill: C.dim });
  const track = 'M140 180 H540 V300 H140 V420 H540 M240 180 V420 M440 180 V420';
  body += `<path d="${track}" fill="none" stroke="#d0d7e2" stroke-width="10" stroke-linecap="round" stroke-linejoin="round"/>`;
  body += `<path d="${track}" fill="none" stroke="#b4c0cf" stroke-width="2" stroke-dasharray="6 8"/>`;
  [[200, 180, 38], [440, 250, 30], [300, 420, 24], [540, 360, 20]].forEach(([cx, cy, r]) => {
    body += `<circle cx="${cx}" cy="${cy}" r="${r}" fill="${C.error}" opacity="0.18"/><circle cx="${cx}" cy="${cy}" r="${r * 0.55}" fill="${C.error}" opacity="0.3"/>`;
  });
  [[196, 176], [206, 186], [190, 188], [444, 246], [436, 256], [300, 416], [540, 356], [246, 300], [140, 330]].forEach(([cx, cy]) => {
    body += `<circle cx="${cx}" cy="${cy}" r="5" fill="${C.error}" stroke="#fff" stroke-width="1.5"/>`;
  });
  body += card(612, 76, 320, 444) + text(632, 104, l.pareto, { size: 14, weight: 600, fill: C.dim });
  const values = [9.4, 6.1, 3.8, 2.2, 1.1];
  values.forEach((value, i) => {
    const y = 134 + i * 74;
    body += text(632, y + 14, l.errs[i], { size: 13, weight: 600 });
    body += `<rect x="632" y="${y + 24}" width="${(value / 9.4) * 200}" height="16" rx="4" fill="${i === 0 ? C.error : '#f08c8c'}"/>`;
    body += text(912, y + 37, `${num(lang, value)} ${l.hours}`, { size: 12, anchor: 'end', fill: C.dim, weight: 600 });
  });
  return frame(l.failures, body, { lang });
}

for (const lang of ['en', 'de']) {
  const slides = { 2: dashboard(lang), 3: statusboard(lang), 4: productivity(lang), 5: failures(lang) };
  for (const [n, svg] of Object.entries(slides)) {
    const file = join(root, lang, `slide-${n}.svg`);
    mkdirSync(dirname(file), { recursive: true });
    writeFileSync(file, svg);
  }
}
console.log('onboarding images written to', root);
