import { stringify } from 'csv-stringify';
import { createWriteStream, renameSync, rmSync } from 'node:fs';
import { once } from 'node:events';
import { finished } from 'node:stream/promises';

/**
 * A cell Excel would run as a formula (=, +, -, @, or a tab or return first) is written with a
 * leading apostrophe, as OWASP advises: a file named "=HYPERLINK(…)" must stay a name. The other
 * side names files, so the same holds wherever a spreadsheet could begin a cell inside one: after
 * a line break, and after a comma, semicolon or tab (the list separator of a German Excel).
 */
const FORMULA_START = /^[=+\-@\t\r]/;
const FORMULA_INSIDE_OR_DEFUSED = /([\r\n,;\t])('*[=+\-@])/g;
const DEFUSED_START = /^'+[=+\-@\t\r]/;
export const defused = (text: string): string => {
  // A name that already reads like a defused one ('=x) gets its own apostrophe too, so undefused()
  // gives every name back exactly.
  const inside = text.replace(FORMULA_INSIDE_OR_DEFUSED, "$1'$2");
  return FORMULA_START.test(inside) || DEFUSED_START.test(inside) ? `'${inside}` : inside;
};
/** A cell as it was before defused(): how the register's own names are read back. */
export const undefused = (cell: string): string =>
  cell.replace(/^'(?='*[=+\-@\t\r])/, '').replace(/([\r\n,;\t])'(?='*[=+\-@])/g, '$1');

/** Quoted beyond csv-stringify's own rule (separator, quote, CR LF): a lone CR or LF, a semicolon, a tab. */
const QUOTED = /[\r\n;\t]/;

/**
 * CSV as Excel reads it: UTF-8 with a byte-order mark (without it Excel reads UTF-8 as the local
 * code page and mangles every accented name), Windows line ends, formulas defused. Written beside
 * the target and renamed when complete, so a half-written file never passes for a whole one.
 */
export async function writeExcelCsv(path: string, records: Iterable<string[]>): Promise<void> {
  const partial = `${path}.partial`;
  const out = createWriteStream(partial);
  // An unwritable place fails here, before any row is read.
  await once(out, 'open');
  const csv = stringify({
    bom: true,
    record_delimiter: 'windows',
    quoted_match: QUOTED,
    cast: { number: String },
  });
  csv.pipe(out);
  try {
    for (const record of records)
      if (!csv.write(record.map(defused))) await new Promise((resolve) => csv.once('drain', resolve));
    csv.end();
    await finished(out);
    renameSync(partial, path);
  } catch (error) {
    csv.destroy();
    out.destroy();
    rmSync(partial, { force: true });
    throw error;
  }
}
