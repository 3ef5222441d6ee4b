import { DeskError } from '../errors';
import { said } from '../../protocol/said';
import type { DocumentTimestamper } from '../tools/pdf/seal';
import { SEALED_WITH_ITS_KIT, UNSEALED_BY_CHOICE } from '../tools/pdf/seal';
import type { SealedFile } from '../../verifier/kit-manifest';
import {
  KIT_MANIFEST_FILE,
  KIT_SEAL_CHAIN_FILE,
  KIT_SEAL_ROOT_FILE,
  KIT_SEAL_SIGNER_FILE,
  KIT_TOKEN_FILE,
  asicManifest,
  kitSealStatusFile,
} from '../../verifier/kit-manifest';
import { base64ToBytes } from '../../verifier/bytes';
import type { KitSink } from './kit-sink';
import type { KitTarget } from './kit';
import { pem } from './pem';

/** A kit's PDFs are sealed by the kit's one timestamp when it has an authority, else not at all (saying why). */
export const sealing = (target: KitTarget) =>
  target.timestamper ? SEALED_WITH_ITS_KIT : target.seal === false ? UNSEALED_BY_CHOICE : undefined;

/**
 * The kit's seal, once every other file is in: the manifest of their SHA-256s, one RFC 3161 token
 * over it, and the authority's certificates to check that token with. A kit whose pages say it is
 * sealed is never saved without its seal: a refusal fails the export, saying why.
 */
export async function sealKit(
  sink: KitSink,
  files: readonly SealedFile[],
  timestamper: DocumentTimestamper | undefined,
): Promise<void> {
  if (!timestamper) return;
  const manifest = Buffer.from(asicManifest(files));
  await sink.put(KIT_MANIFEST_FILE, manifest);
  const answer = await timestamper(manifest);
  if ('problem' in answer)
    throw new DeskError('not_sealed', said('exports.kitNotSealed', { why: answer.problem }));
  await sink.put(KIT_TOKEN_FILE, Buffer.from(answer.token));
  const root = answer.chain?.at(-1);
  if (!answer.chain || !root) return;
  // Above the signer (whose certificate the token carries): what -untrusted is given.
  const above = answer.chain.length > 1 ? answer.chain.slice(1) : answer.chain;
  await sink.put(KIT_SEAL_CHAIN_FILE, above.map((der) => pem(der, 'CERTIFICATE')).join(''));
  await sink.put(KIT_SEAL_ROOT_FILE, pem(root, 'CERTIFICATE'));
  await sink.put(KIT_SEAL_SIGNER_FILE, pem(answer.chain[0] as string, 'CERTIFICATE'));
  // The seal's validation data, so that it checks after the authority's certificate expires.
  for (const kind of ['ocsp', 'crl'] as const)
    for (const [index, der] of (answer.validation?.[kind] ?? []).entries())
      await sink.put(kitSealStatusFile(kind, index + 1), Buffer.from(base64ToBytes(der)));
}
