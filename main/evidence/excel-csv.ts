import { stringify } from 'csv-stringify';
import { createWriteStream, renameSync, rmSync } from 'node:fs';
import { once } from 'node:events';
import { finished } from 'node:stream/promises';

/**
 * A cell Excel would run as a formula (=, +, -, @, or a tab or return first) is written with a
 * leading apostrophe, as OWASP advises: a file named "=HYPERLINK(…)" must stay a name.
 */
const FORMULA_START = /^[=+\-@\t\r]/;
const defused = (text: string) => (FORMULA_START.test(text) ? `'${text}` : text);

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
  const csv = stringify({ bom: true, record_delimiter: 'windows', cast: { number: String } });
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
