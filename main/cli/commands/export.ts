import { resolve } from 'node:path';
import type { EvidenceCore } from '../../core';
import type { ExportResult } from '../../../protocol/views';
import type { Values } from '../arguments';
import { EXIT, selectionOf } from '../arguments';
import { count, environmentOf, err, out, outJson, printable, sayIfDemo } from '../output';
import { say, words } from '../language';

/**
 * `export`: the evidence kit for the chosen certifications, into a folder and/or a zip; and/or
 * the chain-of-custody register as CSV.
 */
export async function exportKit(core: EvidenceCore, values: Values): Promise<number> {
  const selection = selectionOf(values);
  const showProgress = process.stderr.isTTY && !values.json;
  const kit: ExportResult | null =
    values.out || values.zip
      ? await core.exports.exportEvidence(selection, {
          dir: values.out ? resolve(values.out) : undefined,
          zip: values.zip ? resolve(values.zip) : undefined,
          receiptsOnly: values['receipts-only'] ?? false,
          // Unsealed only when asked: the kit and its pages then say so.
          ...(values.unsealed ? { seal: false } : {}),
          // Said on stderr whatever it is: a kit that waits for its authority does not look stuck.
          onSealing: (until) => {
            if (!values.json)
              err(
                until === null
                  ? words('export.sealing')
                  : words('export.sealingWaits', { until: new Date(until).toISOString() }),
              );
          },
          onProgress: (done, total) => {
            if (showProgress && (done === total || done % 50 === 0))
              err(words('export.progress', { done, total }));
          },
        })
      : null;
  const register = values.csv ? await core.exports.exportRegister(selection, resolve(values.csv)) : null;
  const certifications = (kit ?? register)?.certifications ?? 0;
  if (values.json) {
    outJson({
      certifications,
      ...(kit?.dir ? { folder: kit.dir } : {}),
      ...(kit?.zip ? { zip: kit.zip } : {}),
      ...(register?.file ? { register: register.file, registerEvents: register.eventsFile } : {}),
      ...(kit?.sealWaiting ? { sealWaiting: say(kit.sealWaiting) } : {}),
      environment: environmentOf(core),
    });
    return EXIT.ok;
  }
  if (kit) {
    const where = [kit.dir, kit.zip].filter(Boolean).map((path) => printable(path as string));
    out(
      words('export.saved', {
        certifications: count(kit.certifications, 'certifications'),
        where: where.length === 2 ? words('and', { first: where[0], second: where[1] }) : where[0],
      }),
    );
    if (kit.certifications === 0) out(words('export.nothing'));
    // Saved, and not sealed yet: said as plainly as the saving, never left for the kit to tell.
    if (kit.sealWaiting) out(say(kit.sealWaiting));
  }
  if (register?.file)
    out(
      words('export.register', {
        certifications: count(register.certifications, 'certifications'),
        file: printable(register.file),
        events: printable(register.eventsFile ?? ''),
      }),
    );
  sayIfDemo(core, values);
  return EXIT.ok;
}
