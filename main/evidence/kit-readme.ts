import { localWithZone, utcIso } from '../../protocol/time-format';

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

/** The by-hand check, in Python's standard library: the README prints it and a test runs it. */
export const MANUAL_CHECK_SCRIPT = `import base64, hashlib, json, struct, sys
receipt = json.load(open(sys.argv[1], encoding="utf-8"))
document = hashlib.sha256(open(sys.argv[2], "rb").read()).hexdigest()
e = receipt["evidence"]
leaf = json.loads(e["leaf_input"])
assert document == receipt["file"]["sha256"] == leaf["asset_hash"], "NOT the certified document"
h = lambda *parts: hashlib.sha256(b"".join(parts)).digest()
node = h(b"\\x00", e["leaf_input"].encode("utf-8"))
assert node.hex() == e["leaf_hash"], "the leaf was altered"
fn, sn = e["leaf_index"], e["tree_size"] - 1
for p in map(bytes.fromhex, e["inclusion_proof"]):
    if fn % 2 == 1 or fn == sn:
        node = h(b"\\x01", p, node)
        while fn % 2 == 0 and fn != 0:
            fn, sn = fn >> 1, sn >> 1
    else:
        node = h(b"\\x01", node, p)
    fn, sn = fn >> 1, sn >> 1
assert sn == 0 and node.hex() == e["root_hash"], "the inclusion proof does not lead to the root"
sth = e["signed_tree_head"]
assert (sth["tree_size"], sth["root_hash"]) == (e["tree_size"], e["root_hash"]), "tree head mismatch"
open("tree-head.bin", "wb").write(b"\\x00\\x01" + struct.pack(">QQ", sth["timestamp"], sth["tree_size"]) + node)
open("tree-head.sig", "wb").write(base64.b64decode(sth["signature"], validate=True))
print("The document, the leaf and the inclusion proof hold. Now check the signature with OpenSSL.")
`;

/** Files the README's own steps write into the kit's folder: named apart, never as added to the kit. */
const WRITTEN_BY_THE_STEPS = [
  'check_receipt.py',
  'check_timestamp.py',
  'check_kit.py',
  'check_pdf_seal.py',
  'tree-head.bin',
  'tree-head.sig',
  'batch-root.bin',
  'timestamp.tsr',
  'tsa-chain.pem',
  'pdf-signed.bin',
  'pdf-seal.tst',
];

/**
 * The by-hand check of the kit's seal, after the token over the manifest: every file of the folder
 * against the manifest's SHA-256s. Run from the kit's folder; the README prints it and a test runs it.
 */
export const MANUAL_KIT_SCRIPT = `import base64, hashlib, os, re, sys, urllib.parse
manifest = open("META-INF/ASiCManifest.xml", encoding="utf-8").read()
listed = {}
for uri, digest in re.findall(r'DataObjectReference URI="([^"]*)".*?<ds:DigestValue>([^<]*)<', manifest, re.S):
    listed[urllib.parse.unquote(uri)] = base64.b64decode(digest).hex()
steps = set(${JSON.stringify(WRITTEN_BY_THE_STEPS)})
present, made_here = {}, []
for folder, _, names in os.walk("."):
    for name in names:
        path = os.path.relpath(os.path.join(folder, name), ".").replace(os.sep, "/")
        if path == "mimetype" or path.startswith("META-INF/"):
            continue
        if path in steps:
            made_here.append(path)
            continue
        present[path] = hashlib.sha256(open(path, "rb").read()).hexdigest()
problems = ["changed since sealing: " + p for p in sorted(listed) if p in present and present[p] != listed[p]]
problems += ["removed since sealing: " + p for p in sorted(listed) if p not in present]
problems += ["added since sealing: " + p for p in sorted(present) if p not in listed]
if made_here:
    print("Not part of the kit, written by the steps of its README: " + ", ".join(sorted(made_here)))
print("\\n".join(problems) or "Every file of the kit (%d) is as it was sealed." % len(listed))
sys.exit(1 if problems else 0)
`;

/**
 * The by-hand check of a PDF sealed on its own (a PAdES document timestamp): the bytes its
 * /ByteRange covers and the token in /Contents, for openssl ts -verify.
 */
export const MANUAL_PDF_SEAL_SCRIPT = `import re, sys
pdf = open(sys.argv[1], "rb").read()
a, b, c, d = map(int, re.findall(rb"/ByteRange \\[(\\d+) (\\d+) (\\d+) (\\d+) *\\]", pdf)[-1])
assert a == 0 and c + d == len(pdf), "the seal does not cover the whole file: something was added after it"
open("pdf-signed.bin", "wb").write(pdf[a:a + b] + pdf[c:c + d])
token = pdf[b + 1:c - 1].rstrip(b"0")
open("pdf-seal.tst", "wb").write(bytes.fromhex((token + b"0" * (len(token) % 2)).decode()))
print("The seal covers the whole file. Now check its token with OpenSSL.")
`;

/**
 * The by-hand check of the independent timestamp: folds the receipt's path from the document's
 * SHA-256 up to the batch root, and writes the root, the token and the authority's certificates for
 * `openssl ts -verify`. The README prints it and a test runs it.
 */
export const MANUAL_TIMESTAMP_SCRIPT = `import base64, hashlib, json, sys
receipt = json.load(open(sys.argv[1], encoding="utf-8"))
document = hashlib.sha256(open(sys.argv[2], "rb").read()).digest()
t = receipt["timestamp"]
h = lambda *parts: hashlib.sha256(b"".join(parts)).digest()
node = h(b"\\x00", document)
for step in t["path"]:
    sibling = bytes.fromhex(step["hash"])
    node = h(b"\\x01", sibling, node) if step["side"] == "left" else h(b"\\x01", node, sibling)
assert node.hex() == t["root"], "NOT the timestamped document: the path does not lead to the root"
open("batch-root.bin", "wb").write(node)
open("timestamp.tsr", "wb").write(base64.b64decode(t["token"], validate=True))
pem = lambda der: "-----BEGIN CERTIFICATE-----\\n" + base64.encodebytes(base64.b64decode(der)).decode() + "-----END CERTIFICATE-----\\n"
open("tsa-chain.pem", "w").write("".join(pem(c) for c in t["chain"][1:-1]) or pem(t["chain"][-1]))
print("The path leads from the document to the timestamped root. Now check the token with OpenSSL.")
`;

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
  register.pdf                          One line per certification.
  verify.html                           A verifier that runs in any web browser, offline.
${keyLines}
                                        The public key of the log that signed the evidence.
${
  summary.sealed === true
    ? `  META-INF/  and  mimetype              The kit's seal: the list of every file with its SHA-256, and
                                        one timestamp over it (see "THE KIT'S SEAL" below).
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
under one Merkle root (RFC 6962 hashing) and the TSA signed SHA-256 of that root. A receipt's
"timestamp" holds the TSA's token, the path from the document's SHA-256 to the root, and the TSA's
certificates. The roots these tokens chain to:
${lines}
Compare a root's fingerprint with the one the authority publishes (openssl x509 -in ${root.file}
-outform DER | sha256sum). verify.html checks all of this; by hand:

  5. Save these lines as check_timestamp.py, then run
       python3 check_timestamp.py NAME.receipt.json DOCUMENT
     It folds the path and writes batch-root.bin, timestamp.tsr (the token) and tsa-chain.pem.

----- check_timestamp.py -----
${MANUAL_TIMESTAMP_SCRIPT}----- end -----

  6. The authority's signature, certificate and chain, over that root:
       openssl ts -verify -data batch-root.bin -in timestamp.tsr -token_in -CAfile ${root.file} -untrusted tsa-chain.pem
     OpenSSL answers "Verification: OK". The time is the token's genTime:
       openssl ts -reply -in timestamp.tsr -token_in -text | grep "Time stamp"
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

  7. The authority's token over the manifest:
       openssl ts -verify -data META-INF/ASiCManifest.xml -in META-INF/timestamp.tst -token_in -CAfile META-INF/timestamp-root.pem -untrusted META-INF/timestamp-chain.pem
     OpenSSL answers "Verification: OK". Compare the authority's root with the fingerprint it
     publishes:
       openssl x509 -in META-INF/timestamp-root.pem -outform DER | sha256sum
     The time of the seal is the token's genTime:
       openssl ts -reply -in META-INF/timestamp.tst -token_in -text | grep "Time stamp"
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
