// Validate.java - check an RFC 4998 evidence record (DER .ers) for one document with Bouncy Castle 1.72
// (Debian bookworm: libbcprov-java, libbcutil-java, libbcpkix-java 1.72-2).
//
// test/evidence/evidence-records.test.ts compiles it against Debian's 1.72 jars and runs it on every
// record it makes: the independent verifier our records are held to.
//
// Build: javac -cp /usr/share/java/bcprov.jar:/usr/share/java/bcutil.jar:/usr/share/java/bcpkix.jar Validate.java
// Run:   java  -cp /usr/share/java/bcprov.jar:/usr/share/java/bcutil.jar:/usr/share/java/bcpkix.jar:. \
//             Validate record.ers document.bin tsa-root.pem [--revocation]
// Exit:  0 = valid for this document now; 1 = invalid (reason on stderr); 2 = usage / I/O / unexpected error.
//
// What is checked:
//   BC 1.72 high-level API : parse; RFC 4998 5.3 step 2 timestamp-renewal links inside every chain
//                            (ERSEvidenceRecord constructor); document covered by the first ATS of the
//                            newest chain incl. the hash-tree-renewal concatenation (validatePresent).
//   added here (BC gaps)   : first ATS of EVERY chain covers the document (5.3 steps 1 and 3);
//                            tree algorithm == messageImprint algorithm (4.3 step 4); one algorithm per
//                            chain (5.1); ascending genTime (5.1); every token's CMS signature, ESS cert id,
//                            EKU; PKIX path to the given root at the genTime of the NEXT archive timestamp
//                            (5.3 step 2 "valid relative to the time of the following Archive Timestamp",
//                            step 3 for chain hand-over) and at "now" for the newest one; toy algorithm policy.
//   not checked            : revocation unless --revocation (then only CRLs embedded in the tokens' SignedData,
//                            evaluated by the JDK PKIX checker); a real algorithm-suitability policy.
//
// Deliberately NOT using ERSEvidenceRecord.validate(SignerInformationVerifier): in 1.72 it requires the newest
// archive timestamp to cover the timeStamp of EVERY earlier archive timestamp of its chain (BC's own renewal
// convention), which rejects RFC-conformant chains of >= 3 timestamps built by other producers, and it only
// checks the newest token anyway.

import java.io.InputStream;
import java.io.OutputStream;
import java.nio.file.Files;
import java.nio.file.Paths;
import java.security.Security;
import java.security.cert.CertPathBuilder;
import java.security.cert.CertStore;
import java.security.cert.CertificateFactory;
import java.security.cert.CollectionCertStoreParameters;
import java.security.cert.PKIXBuilderParameters;
import java.security.cert.TrustAnchor;
import java.security.cert.X509CertSelector;
import java.security.cert.X509Certificate;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collection;
import java.util.Collections;
import java.util.Date;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

import org.bouncycastle.asn1.ASN1Encoding;
import org.bouncycastle.asn1.ASN1ObjectIdentifier;
import org.bouncycastle.asn1.tsp.ArchiveTimeStamp;
import org.bouncycastle.asn1.tsp.ArchiveTimeStampChain;
import org.bouncycastle.asn1.tsp.ArchiveTimeStampSequence;
import org.bouncycastle.asn1.x509.AlgorithmIdentifier;
import org.bouncycastle.cert.X509CRLHolder;
import org.bouncycastle.cert.X509CertificateHolder;
import org.bouncycastle.cert.jcajce.JcaX509CRLConverter;
import org.bouncycastle.cert.jcajce.JcaX509CertificateConverter;
import org.bouncycastle.cms.SignerInformationVerifier;
import org.bouncycastle.cms.jcajce.JcaSimpleSignerInfoVerifierBuilder;
import org.bouncycastle.jce.provider.BouncyCastleProvider;
import org.bouncycastle.operator.DigestCalculator;
import org.bouncycastle.operator.DigestCalculatorProvider;
import org.bouncycastle.operator.jcajce.JcaDigestCalculatorProviderBuilder;
import org.bouncycastle.tsp.TimeStampToken;
import org.bouncycastle.tsp.ers.ERSArchiveTimeStamp;
import org.bouncycastle.tsp.ers.ERSByteData;
import org.bouncycastle.tsp.ers.ERSEvidenceRecord;

public final class Validate
{
    /** id-kp-timeStamping */
    private static final String KP_TIME_STAMPING = "1.3.6.1.5.5.7.3.8";

    /** Digest algorithms treated as broken "now". Replace with a real, dated algorithm policy. */
    private static final Set<String> WEAK_NOW = new HashSet<String>(Arrays.asList(
        "1.2.840.113549.2.5",   // md5
        "1.3.14.3.2.26"));      // sha1

    private static final class Invalid extends Exception
    {
        Invalid(String msg)
        {
            super(msg);
        }

        Invalid(String msg, Throwable cause)
        {
            super(msg + ": " + cause, cause);
        }
    }

    public static void main(String[] args)
    {
        if (args.length < 3 || args.length > 4 || (args.length == 4 && !"--revocation".equals(args[3])))
        {
            System.err.println("usage: Validate <record.ers> <document> <tsa-root.pem> [--revocation]");
            System.exit(2);
        }
        try
        {
            byte[] ers = Files.readAllBytes(Paths.get(args[0]));
            byte[] doc = Files.readAllBytes(Paths.get(args[1]));
            X509Certificate root = readCertificate(args[2]);

            Date existedAt = validate(ers, doc, root, args.length == 4);

            System.out.println("VALID: the document existed at " + existedAt
                + "; the evidence record is valid at " + new Date());
            System.exit(0);
        }
        catch (Invalid e)
        {
            System.err.println("INVALID: " + e.getMessage());
            System.exit(1);
        }
        catch (Exception e)
        {
            System.err.println("ERROR: " + e);
            System.exit(2);
        }
    }

    static Date validate(byte[] ersBytes, byte[] document, X509Certificate root, boolean revocation)
        throws Exception
    {
        if (Security.getProvider(BouncyCastleProvider.PROVIDER_NAME) == null)
        {
            Security.addProvider(new BouncyCastleProvider());
        }
        DigestCalculatorProvider dcp = new JcaDigestCalculatorProviderBuilder()
            .setProvider(BouncyCastleProvider.PROVIDER_NAME).build();
        Date now = new Date();

        // ---- 1. Bouncy Castle high-level API ----------------------------------------------------------
        ERSEvidenceRecord ers;
        try
        {
            // parses EvidenceRecord; for every chain checks ATS[j] covers DER(ATS[j-1].timeStamp) and that the
            // digest AlgorithmIdentifier is equal inside the chain (1.72: encoding-equal, NULL != absent params)
            ers = new ERSEvidenceRecord(ersBytes, dcp);
        }
        catch (Exception e) // 1.72 can also throw unchecked exceptions on malformed input
        {
            throw new Invalid("record rejected while parsing / checking timestamp renewals", e);
        }
        try
        {
            // first ATS of the NEWEST chain: h = H(doc), or H(H(doc) || H(DER(older chains))) if >1 chain;
            // h must be in the first PartialHashtree (or equal the imprint if there is no reducedHashtree);
            // recomputed root must equal the messageImprint; genTime must not be after 'now'
            ers.validatePresent(new ERSByteData(document), now);
        }
        catch (Exception e)
        {
            throw new Invalid("document not covered by the first archive timestamp of the newest chain", e);
        }

        // ---- 2. structural checks BC 1.72 does not do --------------------------------------------------
        ArchiveTimeStampChain[] chains =
            ers.toASN1Structure().getArchiveTimeStampSequence().getArchiveTimeStampChains();
        Set<String> declared = new HashSet<String>();
        AlgorithmIdentifier[] declaredAlgs = ers.toASN1Structure().getDigestAlgorithms();
        for (int i = 0; i < declaredAlgs.length; i++)
        {
            declared.add(declaredAlgs[i].getAlgorithm().getId());
        }

        List<ArchiveTimeStamp> all = new ArrayList<ArchiveTimeStamp>();
        List<String> where = new ArrayList<String>();
        for (int c = 0; c < chains.length; c++)
        {
            ArchiveTimeStamp[] atss = chains[c].getArchiveTimestamps();
            if (atss.length == 0)
            {
                throw new Invalid("chain " + c + " is empty");
            }
            AlgorithmIdentifier chainAlg = atss[0].getDigestAlgorithmIdentifier();
            if (!declared.contains(chainAlg.getAlgorithm().getId()))
            {
                System.err.println("warning: chain " + c + " algorithm " + chainAlg.getAlgorithm()
                    + " not listed in EvidenceRecord.digestAlgorithms (RFC 4998 3.1)");
            }
            for (int k = 0; k < atss.length; k++)
            {
                String w = "chain " + c + ", archive timestamp " + k;
                ASN1ObjectIdentifier treeAlg = atss[k].getDigestAlgorithmIdentifier().getAlgorithm();
                if (!treeAlg.equals(chainAlg.getAlgorithm()))
                {
                    throw new Invalid(w + ": digest algorithm differs inside the chain (RFC 4998 5.1)");
                }
                TimeStampToken tst = token(atss[k], w);
                if (!tst.getTimeStampInfo().getMessageImprintAlgOID().equals(treeAlg))
                {
                    throw new Invalid(w + ": messageImprint algorithm is not the hash-tree algorithm (RFC 4998 4.3 step 4)");
                }
                all.add(atss[k]);
                where.add(w);
            }

            // RFC 4998 5.3 step 1 (c == 0) and step 3 (c > 0): the first ATS of EVERY chain covers the document.
            byte[] h = digest(dcp, chainAlg, document);
            if (c > 0)
            {
                // ha = H_c( DER( ArchiveTimeStampSequence ::= SEQUENCE OF chains[0..c-1] ) ), then H_c(h(d) || ha)
                byte[] olderChains =
                    new ArchiveTimeStampSequence(Arrays.copyOf(chains, c)).getEncoded(ASN1Encoding.DER);
                h = digest(dcp, chainAlg, concat(h, digest(dcp, chainAlg, olderChains)));
            }
            try
            {
                new ERSArchiveTimeStamp(atss[0], dcp).validatePresent(false, h, now);
            }
            catch (Exception e)
            {
                throw new Invalid("chain " + c + ": its first archive timestamp does not cover the document", e);
            }
        }

        String newestAlg = chains[chains.length - 1].getArchiveTimestamps()[0]
            .getDigestAlgorithmIdentifier().getAlgorithm().getId();
        if (WEAK_NOW.contains(newestAlg))
        {
            throw new Invalid("newest chain uses digest " + newestAlg + ", not acceptable now: hash-tree renewal was due");
        }

        // ---- 3. every timestamp token: signature + trust at the time of the following ATS (newest: now) --
        Date previousGenTime = null;
        for (int i = 0; i < all.size(); i++)
        {
            String w = where.get(i);
            TimeStampToken tst = token(all.get(i), w);
            Date genTime = tst.getTimeStampInfo().getGenTime();
            if (previousGenTime != null && genTime.before(previousGenTime))
            {
                throw new Invalid(w + ": archive timestamps are not in ascending time order (RFC 4998 5.1)");
            }
            if (genTime.after(now))
            {
                throw new Invalid(w + ": genTime is in the future");
            }
            previousGenTime = genTime;

            Date checkAt = (i + 1 < all.size())
                ? token(all.get(i + 1), where.get(i + 1)).getTimeStampInfo().getGenTime()
                : now;

            X509CertificateHolder signer = signerCertificate(tst, w);
            try
            {
                SignerInformationVerifier verifier = new JcaSimpleSignerInfoVerifierBuilder()
                    .setProvider(BouncyCastleProvider.PROVIDER_NAME).build(signer);
                // ESS signing-certificate(-v2) hash (+issuerSerial), critical EKU == {timeStamping},
                // signer cert valid at the token's OWN genTime, CMS signature
                tst.validate(verifier);
            }
            catch (Exception e)
            {
                throw new Invalid(w + ": timestamp token does not verify", e);
            }
            try
            {
                buildPath(tst, signer, root, checkAt, revocation);
            }
            catch (Exception e)
            {
                throw new Invalid(w + ": no valid certification path to the trusted root at " + checkAt, e);
            }
        }

        return token(all.get(0), where.get(0)).getTimeStampInfo().getGenTime();
    }

    private static TimeStampToken token(ArchiveTimeStamp ats, String where)
        throws Invalid
    {
        try
        {
            return new TimeStampToken(ats.getTimeStamp());
        }
        catch (Exception e)
        {
            throw new Invalid(where + ": timeStamp is not a usable RFC 3161 TimeStampToken", e);
        }
    }

    @SuppressWarnings("unchecked")
    private static X509CertificateHolder signerCertificate(TimeStampToken tst, String where)
        throws Invalid
    {
        Collection<X509CertificateHolder> matches = tst.getCertificates().getMatches(tst.getSID());
        if (matches.isEmpty())
        {
            throw new Invalid(where + ": TSA certificate not embedded in the token"
                + " (RFC 4998 4.2: verification data SHOULD be stored in the timestamp)");
        }
        return matches.iterator().next();
    }

    private static void buildPath(TimeStampToken tst, X509CertificateHolder signer, X509Certificate root,
                                  Date at, boolean revocation)
        throws Exception
    {
        JcaX509CertificateConverter certConverter = new JcaX509CertificateConverter(); // JDK certificate objects
        List<Object> material = new ArrayList<Object>();
        for (X509CertificateHolder holder : tst.getCertificates().getMatches(null))
        {
            material.add(certConverter.getCertificate(holder));
        }
        if (revocation)
        {
            JcaX509CRLConverter crlConverter = new JcaX509CRLConverter();
            for (X509CRLHolder crl : tst.getCRLs().getMatches(null))
            {
                material.add(crlConverter.getCRL(crl));
            }
        }

        X509CertSelector target = new X509CertSelector();
        target.setCertificate(certConverter.getCertificate(signer));
        target.setExtendedKeyUsage(Collections.singleton(KP_TIME_STAMPING));

        PKIXBuilderParameters params = new PKIXBuilderParameters(
            Collections.singleton(new TrustAnchor(root, null)), target);
        params.addCertStore(CertStore.getInstance("Collection", new CollectionCertStoreParameters(material)));
        params.setDate(at);                     // validity of every path certificate is checked at 'at'
        params.setRevocationEnabled(revocation);
        CertPathBuilder.getInstance("PKIX").build(params);
    }

    private static byte[] digest(DigestCalculatorProvider dcp, AlgorithmIdentifier alg, byte[] data)
        throws Exception
    {
        DigestCalculator calc = dcp.get(alg);
        OutputStream out = calc.getOutputStream();
        out.write(data);
        out.close();
        return calc.getDigest();
    }

    private static byte[] concat(byte[] a, byte[] b)
    {
        byte[] r = new byte[a.length + b.length];
        System.arraycopy(a, 0, r, 0, a.length);
        System.arraycopy(b, 0, r, a.length, b.length);
        return r;
    }

    private static X509Certificate readCertificate(String pemFile)
        throws Exception
    {
        InputStream in = Files.newInputStream(Paths.get(pemFile));
        try
        {
            return (X509Certificate)CertificateFactory.getInstance("X.509").generateCertificate(in);
        }
        finally
        {
            in.close();
        }
    }
}
