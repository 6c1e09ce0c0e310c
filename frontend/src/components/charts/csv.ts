import type { TableData } from './types';
import { csvUnitSuffix, csvValue } from './values';

/**
 * CSV export of a chart's table, client-side.
 *
 * Choice (documented in frontend/README.md; the server's error-history CSV follows the same):
 * English uses `,` as separator and `.` as decimal point; German uses `;` and the decimal
 * comma, which is what Excel with German regional settings expects. Instants are written
 * "2026-11-24 14:03:12" in the site's zone, which the column header names. Fields are quoted per RFC 4180 (separator, quote, CR or LF
 * inside -> "..." with doubled quotes), lines end with CRLF, and the file starts with a
 * UTF-8 byte order mark so Excel reads umlauts correctly. Text that starts like a formula
 * (= + - @) gets a leading apostrophe so a spreadsheet never executes it.
 */
export function csvSeparator(language: string): ',' | ';' {
  return language.startsWith('de') ? ';' : ',';
}

const FORMULA_START = /^[=+\-@\t\r]/;

export function quoteCsvField(field: string, separator: string): string {
  if (
    field.includes(separator) ||
    field.includes('"') ||
    field.includes('\n') ||
    field.includes('\r')
  ) {
    return `"${field.replaceAll('"', '""')}"`;
  }
  return field;
}

export function toCsv(table: TableData, language: string): string {
  const separator = csvSeparator(language);
  const header = table.columns.map((column) =>
    quoteCsvField(`${column.label}${csvUnitSuffix(column)}`, separator),
  );
  const lines = table.rows.map((row) =>
    table.columns
      .map((column) => {
        const raw = row[column.key] ?? null;
        let field = csvValue(raw, column, language);
        if (typeof raw === 'string' && FORMULA_START.test(field)) {
          field = `'${field}`;
        }
        return quoteCsvField(field, separator);
      })
      .join(separator),
  );
  return `\uFEFF${[header.join(separator), ...lines].join('\r\n')}\r\n`;
}

/** "fleetscope_productivity-analysis_time-in-state_2026-11-01_2026-11-21.csv" */
export function csvFileName({
  page,
  chart,
  from,
  to,
}: {
  page: string;
  chart: string;
  from: string;
  to: string;
}): string {
  const slug = (text: string) =>
    text
      .replace(/([a-z])([A-Z])/g, '$1-$2')
      .toLowerCase()
      .replace(/[^a-z0-9]+/g, '-')
      .replace(/^-|-$/g, '');
  const period = from === to ? from : `${from}_${to}`;
  return `fleetscope_${slug(page)}_${slug(chart)}_${period}.csv`;
}

/** Hands the CSV to the browser as a download. */
export function downloadCsv({ csv, fileName }: { csv: string; fileName: string }): void {
  const blob = new Blob([csv], { type: 'text/csv;charset=utf-8' });
  const url = URL.createObjectURL(blob);
  const link = document.createElement('a');
  link.href = url;
  link.download = fileName;
  link.rel = 'noopener';
  document.body.append(link);
  link.click();
  link.remove();
  // Revoke after the click was handled; some browsers read the URL asynchronously.
  setTimeout(() => URL.revokeObjectURL(url), 1000);
}
