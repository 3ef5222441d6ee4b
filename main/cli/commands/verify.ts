import { utcIso } from '../../../protocol/time-format';
import type { EvidenceCore } from '../../core';
import type { Values } from '../arguments';
import { EXIT } from '../arguments';
import { environmentOf, out, outJson, printable, publicRow, sayIfDemo } from '../output';
import { inEnglish } from '../../../protocol/locales';
import { say } from '../language';

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
  if (result.certifications.length === 0) out('No certification of this exact file is in the queue.');
  for (const other of result.sameName)
    out(
      `  A file named ${printable(other.fileName)} was certified on ${utcIso(other.createdAt)}, but its content has changed since: this is not the certified version.`,
    );
  for (const { row, check } of result.certifications) out(`  ${row.state}: ${say(check.message)}`);
  if (result.certifications.length) sayIfDemo(core, values, out);
  return verified ? EXIT.ok : EXIT.failed;
}
