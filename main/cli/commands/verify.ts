import { utcIso } from '../../../protocol/time-format';
import type { EvidenceCore } from '../../core';
import type { Values } from '../arguments';
import { EXIT } from '../arguments';
import { environmentOf, out, outJson, printable, publicRow, sayIfDemo } from '../output';
import { inEnglish } from '../../../protocol/locales';
import { say, words } from '../language';

export async function verify(core: EvidenceCore, path: string, values: Values): Promise<number> {
  const result = await core.verification.verifyFile(path);
  const verified = result.certifications.some((c) => c.check.verification === 'verified');
  if (values.json) {
    outJson({
      environment: environmentOf(core),
      path,
      asset_hash: result.assetHash,
      verified,
      certifications: result.certifications.map((c) => ({
        ...publicRow(c.row),
        check: { verification: c.check.verification, message: inEnglish(c.check.message) },
      })),
      same_name_other_content: result.sameName,
    });
    return verified ? EXIT.ok : EXIT.failed;
  }
  out(`${printable(path)}\nsha256 ${result.assetHash}`);
  if (result.certifications.length === 0) out(words('verify.none'));
  for (const other of result.sameName)
    out(words('verify.sameName', { name: printable(other.fileName), when: utcIso(other.createdAt) }));
  for (const { row, check } of result.certifications)
    out(words('verify.check', { state: words(`state.${row.state}`), words: say(check.message) }));
  if (result.certifications.length) sayIfDemo(core, values, out);
  return verified ? EXIT.ok : EXIT.failed;
}
