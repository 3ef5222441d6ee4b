import { createHash, randomBytes } from 'node:crypto';
import * as asn1js from 'asn1js';
import * as pkijs from 'pkijs';
import type { SandboxDb } from './db';
import { SANDBOX_TSA_POLICY } from '../protocol/receipt';
import { getSetting, setSetting } from './db';
import { toArrayBuffer as buffer } from '../verifier/bytes';
import { TSA_CRL_PATH, TSA_OCSP_PATH, rootStatusService } from './demo-tsa-status';

/**
 * The sandbox's DEMO timestamping authority (RFC 3161), so the default run shows the whole flow:
 * a root made once per sandbox database, a signer certificate with the critical timeStamping usage,
 * and tokens bound to it by ESSCertIDv2. Its name says DEMO; nothing it signs carries legal weight.
 */
export interface DemoTsa {
  /** The root certificate a client trusts this authority by, PEM. */
  rootPem: string;
  /** Answers a DER TimeStampReq with a DER TimeStampResp. */
  reply(request: Uint8Array): Promise<Uint8Array>;
  /**
   * Names where the signer's status is published (AIA, CDP) for this address: the signer's
   * certificate is issued again, same key, whenever the sandbox listens somewhere else.
   */
  publishAt(baseUrl: string): Promise<void>;
  /** The root's OCSP responder: answers a DER OCSPRequest (RFC 6960). */
  ocsp(request: Uint8Array): Promise<Uint8Array>;
  /** The root's CRL, DER: nothing revoked. */
  crl(): Promise<Uint8Array>;
  /** How many OCSP requests and CRL downloads it has answered (benchmarks count them). */
  statusRequests(): number;
}

const OID = {
  tstInfo: '1.2.840.113549.1.9.16.1.4',
  contentType: '1.2.840.113549.1.9.3',
  messageDigest: '1.2.840.113549.1.9.4',
  signingTime: '1.2.840.113549.1.9.5',
  signingCertificateV2: '1.2.840.113549.1.9.16.2.47',
  commonName: '2.5.4.3',
  basicConstraints: '2.5.29.19',
  authorityInfoAccess: '1.3.6.1.5.5.7.1.1',
  ocspAccess: '1.3.6.1.5.5.7.48.1',
  crlDistributionPoints: '2.5.29.31',
  keyUsage: '2.5.29.15',
  extKeyUsage: '2.5.29.37',
  timeStamping: '1.3.6.1.5.5.7.3.8',
  sha256: '2.16.840.1.101.3.4.2.1',
  sha512: '2.16.840.1.101.3.4.2.3',
} as const;
const SETTING = 'demo_tsa_v1';
const ALGORITHM = { name: 'ECDSA', namedCurve: 'P-256' } as const;
const webcrypto = globalThis.crypto;

interface Stored {
  rootKey: JsonWebKey;
  rootCert: string;
  signerKey: JsonWebKey;
  signerCert: string;
  /** The base address the signer's certificate names for its status (absent before it named one). */
  signerBase?: string;
}

const toPem = (der: ArrayBuffer) =>
  `-----BEGIN CERTIFICATE-----\n${Buffer.from(der).toString('base64').replace(/.{64}/g, '$&\n').trim()}\n-----END CERTIFICATE-----\n`;

export async function loadOrCreateDemoTsa(db: SandboxDb): Promise<DemoTsa> {
  const json = getSetting(db, SETTING);
  const stored = json ? (JSON.parse(json) as Stored) : await createAuthority();
  if (!json) setSetting(db, SETTING, JSON.stringify(stored));
  const signerKey = await webcrypto.subtle.importKey('jwk', stored.signerKey, ALGORITHM, false, ['sign']);
  const rootKey = await webcrypto.subtle.importKey('jwk', stored.rootKey, ALGORITHM, false, ['sign']);
  let signerDer = Buffer.from(stored.signerCert, 'base64');
  let signer = pkijs.Certificate.fromBER(buffer(signerDer));
  const rootDer = Buffer.from(stored.rootCert, 'base64');
  // Read once: a kit of 10,000 sealed PDFs asks 10,000 times.
  const root = pkijs.Certificate.fromBER(buffer(rootDer));
  return {
    rootPem: toPem(buffer(rootDer)),
    reply: (request) => reply(request, signer, signerDer, signerKey, root),
    async publishAt(baseUrl) {
      if (stored.signerBase === baseUrl) return;
      signer = await certificate({
        subject: 'DEMO Evidence Sandbox Timestamping Authority',
        publicKey: await publicKeyOf(stored.signerKey),
        issuerKey: rootKey,
        issuer: root,
        ca: false,
        notAfter: signer.notAfter.value.getTime(),
        statusAt: baseUrl,
      });
      signerDer = Buffer.from(signer.toSchema().toBER(false));
      stored.signerCert = signerDer.toString('base64');
      stored.signerBase = baseUrl;
      setSetting(db, SETTING, JSON.stringify(stored));
    },
    ...rootStatusService(root, rootKey),
  };
}

async function publicKeyOf(privateJwk: JsonWebKey): Promise<CryptoKey> {
  // The public half of a JWK is the private one without its secret `d`.
  const publicJwk = { kty: privateJwk.kty, crv: privateJwk.crv, x: privateJwk.x, y: privateJwk.y };
  return webcrypto.subtle.importKey('jwk', publicJwk, ALGORITHM, true, ['verify']);
}

async function createAuthority(): Promise<Stored> {
  const rootKeys = await webcrypto.subtle.generateKey(ALGORITHM, true, ['sign', 'verify']);
  const signerKeys = await webcrypto.subtle.generateKey(ALGORITHM, true, ['sign', 'verify']);
  const now = Date.now();
  const rootCert = await certificate({
    subject: 'DEMO Evidence Sandbox Timestamp Root',
    publicKey: rootKeys.publicKey,
    issuerKey: rootKeys.privateKey,
    ca: true,
    notAfter: now + 20 * 365 * 86_400_000,
  });
  const signerCert = await certificate({
    subject: 'DEMO Evidence Sandbox Timestamping Authority',
    publicKey: signerKeys.publicKey,
    issuerKey: rootKeys.privateKey,
    issuer: rootCert,
    ca: false,
    notAfter: now + 10 * 365 * 86_400_000,
  });
  const der = (c: pkijs.Certificate) => Buffer.from(c.toSchema().toBER(false)).toString('base64');
  return {
    rootKey: await webcrypto.subtle.exportKey('jwk', rootKeys.privateKey),
    rootCert: der(rootCert),
    signerKey: await webcrypto.subtle.exportKey('jwk', signerKeys.privateKey),
    signerCert: der(signerCert),
  };
}

function name(commonName: string): pkijs.RelativeDistinguishedNames {
  return new pkijs.RelativeDistinguishedNames({
    typesAndValues: [
      new pkijs.AttributeTypeAndValue({
        type: OID.commonName,
        value: new asn1js.Utf8String({ value: commonName }),
      }),
    ],
  });
}

function extension(extnID: string, critical: boolean, value: asn1js.BaseBlock): pkijs.Extension {
  return new pkijs.Extension({ extnID, critical, extnValue: value.toBER(false) });
}

async function certificate(spec: {
  subject: string;
  publicKey: CryptoKey;
  issuerKey: CryptoKey;
  issuer?: pkijs.Certificate;
  ca: boolean;
  notAfter: number;
  /** The sandbox's base address: the certificate names its OCSP responder and CRL there. */
  statusAt?: string;
}): Promise<pkijs.Certificate> {
  const cert = new pkijs.Certificate();
  cert.version = 2;
  cert.serialNumber = new asn1js.Integer({ valueHex: buffer(Uint8Array.of(0x01, ...randomBytes(15))) });
  cert.subject = name(spec.subject);
  cert.issuer = spec.issuer ? spec.issuer.subject : name(spec.subject);
  cert.notBefore.value = new Date(Date.now() - 60_000);
  cert.notAfter.value = new Date(spec.notAfter);
  // keyCertSign + cRLSign for the root (bits 5, 6); digitalSignature for the signer (bit 0).
  const usage = spec.ca
    ? new asn1js.BitString({ valueHex: buffer(Uint8Array.of(0x06)), unusedBits: 1 })
    : new asn1js.BitString({ valueHex: buffer(Uint8Array.of(0x80)), unusedBits: 7 });
  cert.extensions = [
    extension(OID.basicConstraints, true, new pkijs.BasicConstraints({ cA: spec.ca }).toSchema()),
    extension(OID.keyUsage, true, usage),
  ];
  if (!spec.ca)
    cert.extensions.push(
      extension(OID.extKeyUsage, true, new pkijs.ExtKeyUsage({ keyPurposes: [OID.timeStamping] }).toSchema()),
    );
  if (spec.statusAt) {
    const uri = (path: string) => new pkijs.GeneralName({ type: 6, value: `${spec.statusAt}${path}` });
    cert.extensions.push(
      extension(
        OID.authorityInfoAccess,
        false,
        new pkijs.InfoAccess({
          accessDescriptions: [
            new pkijs.AccessDescription({ accessMethod: OID.ocspAccess, accessLocation: uri(TSA_OCSP_PATH) }),
          ],
        }).toSchema(),
      ),
      extension(
        OID.crlDistributionPoints,
        false,
        new pkijs.CRLDistributionPoints({
          distributionPoints: [new pkijs.DistributionPoint({ distributionPoint: [uri(TSA_CRL_PATH)] })],
        }).toSchema(),
      ),
    );
  }
  await cert.subjectPublicKeyInfo.importKey(spec.publicKey);
  await cert.sign(spec.issuerKey, 'SHA-256');
  return cert;
}

function attribute(type: string, value: asn1js.BaseBlock): pkijs.Attribute {
  return new pkijs.Attribute({ type, values: [value] });
}

async function reply(
  requestDer: Uint8Array,
  signer: pkijs.Certificate,
  signerDer: Buffer,
  signerKey: CryptoKey,
  root: pkijs.Certificate,
): Promise<Uint8Array> {
  let request: pkijs.TimeStampReq;
  try {
    request = pkijs.TimeStampReq.fromBER(buffer(requestDer));
  } catch {
    return rejection('badDataFormat: the request is not a TimeStampReq');
  }
  if (![OID.sha256, OID.sha512].some((oid) => oid === request.messageImprint.hashAlgorithm.algorithmId))
    return rejection('badAlg: the demo authority timestamps SHA-256 and SHA-512 imprints only');
  if (request.reqPolicy && request.reqPolicy !== SANDBOX_TSA_POLICY) return rejection('unacceptedPolicy');

  const info = new pkijs.TSTInfo({
    version: 1,
    policy: SANDBOX_TSA_POLICY,
    messageImprint: request.messageImprint,
    serialNumber: new asn1js.Integer({ valueHex: buffer(Uint8Array.of(0x01, ...randomBytes(15))) }),
    genTime: new Date(Math.floor(Date.now() / 1000) * 1000),
    accuracy: new pkijs.Accuracy({ seconds: 1 }),
    ...(request.nonce ? { nonce: request.nonce } : {}),
  });
  const content = info.toSchema().toBER(false);
  const essCertIdV2 = new asn1js.Sequence({
    value: [
      new asn1js.Sequence({
        value: [
          new asn1js.Sequence({
            value: [
              new asn1js.OctetString({ valueHex: buffer(createHash('sha256').update(signerDer).digest()) }),
            ],
          }),
        ],
      }),
    ],
  });
  const signed = new pkijs.SignedData({
    version: 3,
    encapContentInfo: new pkijs.EncapsulatedContentInfo({
      eContentType: OID.tstInfo,
      eContent: new asn1js.OctetString({ valueHex: content }),
    }),
    signerInfos: [
      new pkijs.SignerInfo({
        version: 1,
        sid: new pkijs.IssuerAndSerialNumber({ issuer: signer.issuer, serialNumber: signer.serialNumber }),
        signedAttrs: new pkijs.SignedAndUnsignedAttributes({
          type: 0,
          attributes: [
            attribute(OID.contentType, new asn1js.ObjectIdentifier({ value: OID.tstInfo })),
            attribute(
              OID.messageDigest,
              new asn1js.OctetString({
                valueHex: buffer(createHash('sha256').update(Buffer.from(content)).digest()),
              }),
            ),
            attribute(OID.signingCertificateV2, essCertIdV2),
          ],
        }),
      }),
    ],
    ...(request.certReq ? { certificates: [signer, root] } : {}),
  });
  await signed.sign(signerKey, 0, 'SHA-256');
  const token = new pkijs.ContentInfo({
    contentType: pkijs.ContentInfo.SIGNED_DATA,
    content: signed.toSchema(true),
  });
  const response = new pkijs.TimeStampResp({
    status: new pkijs.PKIStatusInfo({ status: pkijs.PKIStatus.granted }),
    timeStampToken: token,
  });
  return new Uint8Array(response.toSchema().toBER(false));
}

function rejection(reason: string): Uint8Array {
  const response = new pkijs.TimeStampResp({
    status: new pkijs.PKIStatusInfo({
      status: pkijs.PKIStatus.rejection,
      statusStrings: [new asn1js.Utf8String({ value: reason })],
    }),
  });
  return new Uint8Array(response.toSchema().toBER(false));
}
