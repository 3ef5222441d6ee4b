import { localWithZone, utcIso } from '../../protocol/time-format';
import {
  MANUAL_CHECK_SCRIPT,
  MANUAL_KIT_SCRIPT,
  MANUAL_PDF_SEAL_SCRIPT,
  MANUAL_TIMESTAMP_SCRIPT,
} from './kit-manual-checks';

export interface KitSummary {
  count: number;
  demoCount: number;
  notAnchored: number;
  keys: { file: string; fingerprint: string }[];
  /** The root certificates of the timestamping authorities the receipts' tokens chain to. */
  tsaRoots: { file: string; fingerprint: string }[];
  selection: string;
  generatedAt: Date;
  /** The kit is sealed whole (META-INF/); false says why not. */
  sealed: true | { why: string };
}

/** The README for whoever receives the kit: what the files prove and how to check them, in plain words. */
export function kitReadme(summary: KitSummary): string {
  const made = `${localWithZone(summary.generatedAt.getTime())} (${utcIso(summary.generatedAt.getTime())})`;
  const key = summary.keys[0];
  const keyLines = summary.keys.map((k) => `    ${k.file}   SHA-256 fingerprint ${k.fingerprint}`).join('\n');
  const warnings = [
    summary.demoCount > 0
      ? `WARNING — DEMO: ${summary.demoCount} of these certifications were made on a sandbox. Their cryptography is real, but they carry NO LEGAL WEIGHT.`
      : '',
    summary.notAnchored > 0
      ? `NOTE: ${summary.notAnchored} of these certifications were not anchored when this kit was made; they cannot be verified yet.`
      : '',
  ].filter(Boolean);
  return `EVIDENCE KIT — how to check these certifications
${'='.repeat(48)}

Made with Evidence Desk on ${made}.
It holds ${summary.count} certification${summary.count === 1 ? '' : 's'} (${summary.selection}).
${warnings.length ? `\n${warnings.join('\n')}\n` : ''}
WHAT IS IN THIS FOLDER

  certifications/NAME.certificate.pdf   A one-page certificate for each document: what was certified,
                                        when, by whom, and how to check it. The receipt is attached
                                        inside the PDF, so the certificate alone is enough to verify.
  certifications/NAME.receipt.json      The machine-readable receipt: the evidence exactly as the
                                        certification service issued it.
  certifications/NAME.ers               The document's evidence record (RFC 4998), where there is
                                        one: its timestamps, renewed before they expire.
  register.pdf                          One line per certification.
  verify.html                           A verifier that runs in any web browser, offline.
${keyLines}
                                        The public key of the log that signed the evidence.
${
  summary.sealed === true
    ? `  META-INF/  and  mimetype              The kit's seal: the list of every file with its SHA-256, and
                                        one timestamp over it (see "THE KIT'S SEAL" below). Also
                                        each NAME.ers again, as evidencerecordNNN.ers, with an
                                        ASiCEvidenceRecordManifestNNN.xml naming what it covers:
                                        where ASiC-E tools look for records (ETSI EN 319 162-1).
`
    : ''
}
The documents themselves are NOT in this kit: only their SHA-256 fingerprints were ever sent to the
service. Check the copy of a document you were given against its certificate or receipt.


WHAT A CERTIFICATION PROVES

The service recorded the document's SHA-256 fingerprint in an append-only, tamper-evident log
("anchored"), and the log signed the result. If a document you hold has the same fingerprint, it is
bit for bit the document that was certified, and it existed in that form when it was certified.
Changing a single byte changes the fingerprint, and the check fails.


CHECK WITH verify.html (the easy way)

  1. Open verify.html in a web browser (Chrome, Edge, Firefox or Safari). It needs no internet and
     sends nothing anywhere: its security policy forbids every network request.
  2. Compare the kit's fingerprints it shows with the ones the certification service publishes
     (see below). If they match, tick "… and they match: trust this kit's keys".
  3. Drop in the document and its certificate (.pdf) or receipt (.receipt.json).
  4. Read the result: "Verified", "Not the certified document", "The proof does not hold together",
     "Consistent, but signed by a log key you have not trusted", or "Not verifiable yet".


DO NOT TRUST US: TRUST THE LOG'S KEY

A receipt carries the public key of the log that signed it, so anyone could make a receipt that holds
together. Nothing trusts the keys in this kit for being in it: not verify.html, not Evidence Desk.
Compare the log key's fingerprint${key ? ` (${key.fingerprint})` : ''} with the one the certification
service publishes, independently of whoever sent you this kit, and only then trust it: tick "… they
match" in verify.html, or give --trust-kit to "evidence-desk verify". Until then, a document is
"certified, but signed by a key you have not trusted". If the fingerprints differ, do not rely on
the kit.


CHECK BY HAND (OpenSSL 3 and Python 3)

Run every command below from the kit's folder (the one that holds this README; unzip the kit
first), and save the scripts there.

  1. The document's fingerprint:
       sha256sum DOCUMENT                      (macOS: shasum -a 256 DOCUMENT;
                                                Windows: certutil -hashfile DOCUMENT SHA256)
     It must equal "file.sha256" in the receipt.
  2. The key's fingerprint:
       openssl pkey -pubin -in ${key?.file ?? 'log-key.pem'} -outform DER | sha256sum
     It must equal log_key.fingerprint in the receipt, and the fingerprint the service publishes.
  3. Save these lines as check_receipt.py, then run
       python3 check_receipt.py NAME.receipt.json DOCUMENT
     It checks the leaf and the Merkle inclusion proof (RFC 6962 / RFC 9162), and writes the signed
     tree head (tree-head.bin) and its signature (tree-head.sig) for step 4.

----- check_receipt.py -----
${MANUAL_CHECK_SCRIPT}----- end -----

  4. The log's signature over the tree head (Ed25519):
       openssl pkeyutl -verify -pubin -inkey ${key?.file ?? 'log-key.pem'} -rawin -in tree-head.bin -sigfile tree-head.sig
     OpenSSL answers "Signature Verified Successfully".

${timestampSection(summary.tsaRoots)}${sealSection(summary.sealed)}
Each receipt also lists these steps in its "how_to_verify" field. The format of receipts is
"evidence-desk-receipt/v2"; the evidence format is "rfc6962-merkle-inclusion/v1".
`;
}

function timestampSection(roots: KitSummary['tsaRoots']): string {
  if (roots.length === 0)
    return `
INDEPENDENT TIME

These receipts carry no RFC 3161 timestamp: their time rests on the log's signed tree head alone.
`;
  const [root] = roots;
  if (!root) return '';
  const lines = roots.map((r) => `    ${r.file}   SHA-256 fingerprint ${r.fingerprint}`).join('\n');
  return `
INDEPENDENT TIME (RFC 3161)

Besides the log, a timestamping authority (TSA) signed the time: each batch of documents was put
under one hash tree and the TSA signed its root. Since evidence records, the tree is RFC 4998's (the
token's imprint is the root itself, and "timestamp.reduced" leads from the document's SHA-256 to it);
before, it was RFC 6962's ("timestamp.path", and the TSA signed SHA-256 of the root). A receipt's
"timestamp" also holds the TSA's token and certificates. The roots these tokens chain to:
${lines}
Compare a root's fingerprint with the one the authority publishes (openssl x509 -in ${root.file}
-outform DER | sha256sum). verify.html checks all of this; by hand:

  5. Save these lines as check_timestamp.py, then run
       python3 check_timestamp.py NAME.receipt.json DOCUMENT
     It folds the path and writes batch-root.bin, timestamp.tsr (the token) and tsa-chain.pem.

----- check_timestamp.py -----
${MANUAL_TIMESTAMP_SCRIPT}----- end -----

  6. The authority's signature, certificate and chain, over that root. For a receipt with
     "timestamp.reduced", the script printed ROOT_HEX:
       openssl ts -verify -digest ROOT_HEX -in timestamp.tsr -token_in -CAfile ${root.file} -untrusted tsa-chain.pem
     For an older receipt (with "timestamp.path"):
       openssl ts -verify -data batch-root.bin -in timestamp.tsr -token_in -CAfile ${root.file} -untrusted tsa-chain.pem
     OpenSSL answers "Verification: OK". The time is the token's genTime:
       openssl ts -reply -in timestamp.tsr -token_in -text | grep "Time stamp"

EVIDENCE RECORDS (RFC 4998)

A timestamp holds only while its authority's certificate is valid, a few years. An evidence record
(certifications/NAME.ers, also "evidence_record" in the receipt) keeps the proof alive: before the
newest timestamp in it expires, Evidence Desk adds a new timestamp over it, and so on, for as long as
the record is kept. Each timestamp carries its authority's certificates and their revocation status
(OCSP or CRL) inside it. verify.html and "evidence-desk verify" check it and say the first time it
proves and its last renewal. With a tool of your own: any RFC 4998 verifier checks NAME.ers against
the document itself (for example Bouncy Castle's org.bouncycastle.tsp.ers.ERSEvidenceRecord, with
the authority's root above).

A certification timestamped before Evidence Desk made records has no "evidence_record" in its
receipt. Its NAME.ers is the record of the receipt file itself (its timestamp and validation data
inside): check it against NAME.receipt.json, exactly as it is, not against the document. It keeps
the receipt's own timestamp checkable after that timestamp's certificate expires.
`;
}

function sealSection(sealed: KitSummary['sealed']): string {
  if (sealed !== true)
    return `
THE KIT'S SEAL

This kit is not sealed as a whole: ${sealed.why} Each receipt still proves its document on its own.
`;
  return `
THE KIT'S SEAL (ASiC-E, RFC 3161)

This kit is sealed as a whole, with one timestamp. META-INF/ASiCManifest.xml lists every file of the
kit with its SHA-256, and META-INF/timestamp.tst is a timestamping authority's RFC 3161 token over
that manifest (an ASiC-E container, ETSI EN 319 162-1). Any file changed, added or removed since the
kit was made no longer matches it. The certificates and the register inside are sealed by it, not
each on its own. "evidence-desk verify FOLDER --against KIT" and verify.html check the seal whenever
they are given the kit, and name each file that no longer matches.
If META-INF/seal-waiting.txt is there and META-INF/timestamp.tst is not, the authority could not seal
the kit when it was saved: the note says why, and Evidence Desk adds the seal when the authority
answers. Until then the kit is not sealed, and the steps below have no token to check.

  7. The authority's token over the manifest:
       openssl ts -verify -data META-INF/ASiCManifest.xml -in META-INF/timestamp.tst -token_in -CAfile META-INF/timestamp-root.pem -untrusted META-INF/timestamp-chain.pem
     OpenSSL answers "Verification: OK". Compare the authority's root with the fingerprint it
     publishes:
       openssl x509 -in META-INF/timestamp-root.pem -outform DER | sha256sum
     The time of the seal is the token's genTime:
       openssl ts -reply -in META-INF/timestamp.tst -token_in -text | grep "Time stamp"
     That the authority was in good standing then, after its certificate has expired: what its
     issuer signed when it sealed is beside the token (long-term validation). For an OCSP answer:
       openssl ocsp -respin META-INF/timestamp-ocsp-1.der -issuer META-INF/timestamp-chain.pem -cert META-INF/timestamp-signer.pem -CAfile META-INF/timestamp-root.pem
     OpenSSL answers "Response verify OK" and "good" (or "revoked" after the time of the seal, for
     a reason other than keyCompromise). For a list (META-INF/timestamp-crl-1.crl):
       openssl crl -inform DER -in META-INF/timestamp-crl-1.crl -CAfile META-INF/timestamp-root.pem -noout
     answers "verify OK", and the authority's serial is not in it before that time.
  8. Every file against the manifest: save these lines as check_kit.py, then run
       python3 check_kit.py
     It names each file changed, added or removed since sealing, or says that every file is as it
     was sealed. One file alone: openssl dgst -sha256 -binary FILE | openssl base64 must equal its
     DigestValue in the manifest.

----- check_kit.py -----
${MANUAL_KIT_SCRIPT}----- end -----

A certificate saved on its own (outside a kit) carries its own seal: a PAdES document timestamp over
every byte of the PDF but the token itself. Your PDF reader's signature panel shows it. By hand:

  9. Save these lines as check_pdf_seal.py, then run
       python3 check_pdf_seal.py CERTIFICATE.pdf
     It checks that the seal covers the whole file and writes the bytes it covers (pdf-signed.bin)
     and its token (pdf-seal.tst). Then:
       openssl ts -verify -data pdf-signed.bin -in pdf-seal.tst -token_in -CAfile AUTHORITY-ROOT.pem
     OpenSSL answers "Verification: OK". AUTHORITY-ROOT.pem is the root certificate of the authority
     that sealed it, such as META-INF/timestamp-root.pem of a kit it came with.

----- check_pdf_seal.py -----
${MANUAL_PDF_SEAL_SCRIPT}----- end -----
`;
}
