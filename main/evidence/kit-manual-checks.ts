/**
 * The checks the kit's README prints for making by hand, with Python's standard library and
 * OpenSSL: what a recipient without Evidence Desk runs. kit.test runs each exactly as printed.
 */

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
room = bytes.fromhex(pdf[b + 1:c - 1].decode())
n = room[1]
size = 2 + n if n < 0x80 else 2 + (n & 0x7F) + int.from_bytes(room[2:2 + (n & 0x7F)], "big")
open("pdf-seal.tst", "wb").write(room[:size])
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
if "reduced" in t:
    lists = [[bytes.fromhex(x) for x in hashes] for hashes in t["reduced"]]
    assert not lists or document in lists[0], "NOT the timestamped document: its hash is not in the tree"
    node = document if not lists else lists[0][0] if len(lists[0]) == 1 else h(*sorted(lists[0]))
    for hashes in lists[1:]:
        node = h(*sorted(hashes + [node]))
else:
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
if "reduced" in t:
    print("The token is over the root itself (RFC 4998): ROOT_HEX is " + node.hex())
`;
