import * as asn1js from 'asn1js';
import * as pkijs from 'pkijs';
import { toArrayBuffer as buffer } from '../verifier/bytes';

/** Where the demo authority's status is published, under the sandbox's base address. */
export const TSA_OCSP_PATH = '/tsa/ocsp';
export const TSA_CRL_PATH = '/tsa/root.crl';
/** How long the demo root's OCSP answers and CRL say they hold. */
const STATUS_VALID_MS = 7 * 86_400_000;

const BASIC_OCSP = '1.3.6.1.5.5.7.48.1.1';

/**
 * The demo root's status service: its OCSP responder and its CRL (nothing revoked), where its
 * signer's certificate names them, and how many requests they answered (benchmarks count them).
 */
export function rootStatusService(root: pkijs.Certificate, rootKey: CryptoKey) {
  let crl: { der: Uint8Array; until: number } | null = null;
  let statusRequests = 0;
  return {
    ocsp(request: Uint8Array): Promise<Uint8Array> {
      statusRequests++;
      return ocspReply(request, root, rootKey);
    },
    statusRequests: () => statusRequests,
    async crl(): Promise<Uint8Array> {
      statusRequests++;
      if (!crl || crl.until < Date.now() + STATUS_VALID_MS / 2) {
        const list = new pkijs.CertificateRevocationList({
          version: 1,
          issuer: root.subject,
          thisUpdate: new pkijs.Time({ type: 1, value: new Date(Math.floor(Date.now() / 1000) * 1000) }),
          nextUpdate: new pkijs.Time({ type: 1, value: new Date(Date.now() + STATUS_VALID_MS) }),
        });
        await list.sign(rootKey, 'SHA-256');
        crl = { der: new Uint8Array(list.toSchema().toBER(false)), until: Date.now() + STATUS_VALID_MS };
      }
      return crl.der;
    },
  };
}

/**
 * The root's OCSP answers (RFC 6960), signed by the root itself: good for every certificate it
 * issued (the only ones are the authority's signers), unknown for any other issuer's.
 */
async function ocspReply(
  requestDer: Uint8Array,
  root: pkijs.Certificate,
  rootKey: CryptoKey,
): Promise<Uint8Array> {
  let request: pkijs.OCSPRequest;
  try {
    request = pkijs.OCSPRequest.fromBER(buffer(requestDer));
  } catch {
    // malformedRequest (1), with no response bytes.
    return new Uint8Array(
      new pkijs.OCSPResponse({ responseStatus: new asn1js.Enumerated({ value: 1 }) }).toSchema().toBER(false),
    );
  }
  const now = new Date(Math.floor(Date.now() / 1000) * 1000);
  const answers = [];
  for (const { reqCert } of request.tbsRequest.requestList)
    answers.push({ certID: reqCert, good: await issuedByRoot(reqCert, root) });
  return signedOcspResponse({
    responder: root,
    key: rootKey,
    answers,
    thisUpdate: now,
    nextUpdate: new Date(now.getTime() + STATUS_VALID_MS),
  });
}

/** A successful OCSP response (RFC 6960) saying good or unknown for each CertID, signed by `responder`. */
export async function signedOcspResponse(spec: {
  responder: pkijs.Certificate;
  key: CryptoKey;
  answers: { certID: pkijs.CertID; good: boolean }[];
  thisUpdate: Date;
  nextUpdate: Date;
}): Promise<Uint8Array> {
  const basic = new pkijs.BasicOCSPResponse();
  basic.tbsResponseData.responderID = spec.responder.subject;
  basic.tbsResponseData.producedAt = spec.thisUpdate;
  for (const { certID, good } of spec.answers)
    basic.tbsResponseData.responses.push(
      new pkijs.SingleResponse({
        certID,
        // CertStatus: good [0] IMPLICIT NULL, unknown [2] IMPLICIT NULL.
        certStatus: new asn1js.Primitive({ idBlock: { tagClass: 3, tagNumber: good ? 0 : 2 } }),
        thisUpdate: spec.thisUpdate,
        nextUpdate: spec.nextUpdate,
      }),
    );
  await basic.sign(spec.key, 'SHA-256');
  const response = new pkijs.OCSPResponse({
    responseStatus: new asn1js.Enumerated({ value: 0 }),
    responseBytes: new pkijs.ResponseBytes({
      responseType: BASIC_OCSP,
      response: new asn1js.OctetString({ valueHex: basic.toSchema().toBER(false) }),
    }),
  });
  return new Uint8Array(response.toSchema().toBER(false));
}

async function issuedByRoot(id: pkijs.CertID, root: pkijs.Certificate): Promise<boolean> {
  const hash = pkijs.getCrypto(true).getAlgorithmByOID(id.hashAlgorithm.algorithmId, false);
  if (!hash || !('name' in hash)) return false;
  const rootId = new pkijs.CertID();
  await rootId.createForCertificate(root, { hashAlgorithm: hash.name, issuerCertificate: root });
  return (
    Buffer.compare(
      Buffer.from(rootId.issuerNameHash.valueBlock.valueHexView),
      Buffer.from(id.issuerNameHash.valueBlock.valueHexView),
    ) === 0 &&
    Buffer.compare(
      Buffer.from(rootId.issuerKeyHash.valueBlock.valueHexView),
      Buffer.from(id.issuerKeyHash.valueBlock.valueHexView),
    ) === 0
  );
}
