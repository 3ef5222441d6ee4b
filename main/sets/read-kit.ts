import { existsSync } from 'node:fs';
import type { Trust } from '../../verifier/verify-receipt';
import { kitReader } from '../../verifier/sets/kit-receipt';
import { KitSealReader } from '../../verifier/sets/kit-seal';
import { nodeEd25519Verify } from '../tools/native-signature';
import { UnreadableReference } from './read-load-file';
import type { Reference } from '../../verifier/sets/reference';
import { EntriesBuilder } from '../store';
import { readerTurns } from '../tools/event-loop-turns';
import type { Said } from '../../protocol/said';
import { said } from '../../protocol/said';
import { kitEntries } from './kit-entries';

/**
 * An evidence kit: each receipt is checked as `verify --receipt` would (signature, proof, signed
 * copies), and the kit's seal over all its files. Receipts that hold are the reference, those
 * resting on a key or root not trusted here included (they are named, and their documents are not
 * verified); each one that does not hold is reported, with its verdict, and its document is then
 * not found certified. Each file that no longer matches the kit's seal is named.
 */
export async function readKit(
  path: string,
  trust: Trust,
  entries: EntriesBuilder = new EntriesBuilder(),
  { trustKit = false }: { trustKit?: boolean } = {},
): Promise<Reference> {
  if (!existsSync(path)) throw new UnreadableReference(path, said('sets.why.doesNotExist'));
  const kit = kitReader(trust, { trustKit, verifyEd25519: nodeEd25519Verify }, (entry) => entries.add(entry));
  const seal = new KitSealReader();
  for await (const file of kitEntries(path)) {
    // A file not read (a link, a pipe) matches no digest: named if the seal lists it.
    seal.file(file.path, file.sha256 ?? 'not read');
    const bytes = file.read && 'bytes' in file.read ? file.read.bytes : undefined;
    if (bytes && KitSealReader.wantsBytes(file.path)) seal.part(file.path, bytes);
    if (file.receipt)
      await kit.take(
        bytes ? { where: file.where, bytes } : { where: file.where, why: whyNotRead(file.read) },
      );
  }
  return {
    kind: 'kit',
    source: path,
    entries: await entries.seal({ fromWindows: false }, readerTurns()),
    digests: [],
    ...kit.finish(),
    seal: await seal.check(trust, { trustKit }),
  };
}

const whyNotRead = (read: { why: Said } | { bytes: Uint8Array } | null): Said =>
  read && 'why' in read ? read.why : said('sets.why.notAFile');
