/**
 * Every word Evidence Desk shows on its screens (`app`) and in its menus, tray and notifications
 * (`shell`), in English. Other languages have exactly these keys: TypeScript holds them to it.
 * Plurals follow i18next: `_one` and `_other` (and whatever else a language's plural rules need).
 */
import { BOUND_WORDS, LIMITS } from '../limits';

/** A certification's state, one word each, in sentences and on the command line (docs/glossary.md). */
const STATE_WORDS = {
  queued: 'queued',
  submitting: 'sending',
  pending: 'pending',
  anchored: 'anchored',
  failed: 'failed',
};

export const en = {
  app: {
    header: {
      verify: 'Verify…',
      settings: 'Settings',
    },
    environment: {
      embedded: 'Demo sandbox',
      'service-sandbox': 'Service sandbox',
      production: 'Production',
      custom: 'Custom service',
      named: '{{environment}}: {{name}}',
      noLegalWeight: ' — no legal weight',
      long: {
        embedded: 'Demo sandbox built into Evidence Desk',
        'service-sandbox': 'The service’s sandbox',
        production: 'Production service',
        custom: 'Custom service',
      },
    },
    connection: {
      online: 'Connected',
      offline: 'Offline',
      auth_failed: 'Credentials refused',
      needs_setup: 'Needs setup',
      standby: 'Standing by',
      standbyForCommandLine: 'Sent by the command line',
      paused: 'Sending paused',
      unknown: 'Connecting…',
      ready: 'Ready',
    },
    banner: {
      demo: 'Demo environment: certifications made here are real cryptographic evidence but carry <strong>no legal weight</strong>. Choose a service in Settings for production use.',
      offline: 'The certification service cannot be reached.',
      standbyApp: 'Another Evidence Desk window on this computer is sending this queue.',
      standbyCommandLine:
        'This queue is being sent by the command line (evidence-desk). This window takes over when it is done.',
      paused: 'Sending is paused.',
      waiting_one: '{{count}} certification is waiting',
      waiting_other: '{{count}} certifications are waiting',
      willSendWhenFixed: 'and will be sent once this is fixed. Nothing is lost.',
      willSendAutomatically: 'and will be sent automatically. Nothing is lost.',
      willSendWhenResumed: 'and will be sent when you resume. Nothing is lost.',
      openSettings: 'Open Settings',
      tryNow: 'Try now',
      resume: 'Resume sending',
      keyChanged:
        '<strong>The service now signs with a different key.</strong> Until the new key is trusted, new certifications cannot be shown as verified. A new key is often routine, but it can also mean someone is posing as the service: ask your IT department to compare its fingerprint with the one the service publishes before anyone trusts it.',
      keyChangedLocked:
        '<strong>The service now signs with a different key.</strong> Your IT department decides which keys this computer trusts: new certifications are shown as verified once they have checked this one and trusted it. Nothing is lost meanwhile.',
      newFingerprint: 'Fingerprint of the new key:',
      trustKey: 'Trust the new key…',
      trustKeyConfirm:
        'Trust it only if every group above matches the fingerprint the service publishes, as your IT department confirmed. Every certification not yet verified is then checked with it.',
      trustKeyConfirmed: 'It matches: trust the new key',
      cancel: 'Cancel',
    },
    progress: {
      fingerprinting_one: 'Fingerprinting {{done}} of {{count}} file',
      fingerprinting_other: 'Fingerprinting {{done}} of {{count}} files',
      savingKit_one: 'Saving the evidence: certificate {{done, number}} of {{count, number}}',
      savingKit_other: 'Saving the evidence: certificate {{done, number}} of {{count, number}}',
      savingKitPapers_one: 'Saving the evidence: the certificate is made; writing the register',
      savingKitPapers_other:
        'Saving the evidence: all {{count, number}} certificates are made; writing the register',
      sealingKit: 'Saving the evidence: sealing it with one timestamp',
      sealingKitWaiting:
        'Saving the evidence: sealing it with one timestamp, once the timestamping authority’s pace allows, at {{time}}',
      minutesLeft_one: 'about {{count, number}} minute left',
      minutesLeft_other: 'about {{count, number}} minutes left',
      underAMinuteLeft: 'less than a minute left',
      hoursLeft_one: 'about {{count, number}} hour left',
      hoursLeft_other: 'about {{count, number}} hours left',
      hoursAndMinutesLeft: 'about {{hours}} {{minutes}} left',
      hours_one: '{{count, number}} hour',
      hours_other: '{{count, number}} hours',
      minutes_one: '{{count, number}} minute',
      minutes_other: '{{count, number}} minutes',
      cancelKit: 'Cancel',
    },
    intake: {
      region: 'Add documents',
      explain:
        'Drop documents or folders anywhere in this window. Only their fingerprints leave this computer.',
      addFiles: 'Add files…',
      addFolder: 'Add folder…',
    },
    notice: {
      queued_one: '{{count}} file queued for certification.',
      queued_other: '{{count}} files queued for certification.',
      problems_one: '{{count}} could not be certified:',
      problems_other: '{{count}} could not be certified:',
      alreadyCertified_one: '{{count}} file is already certified, so it was not sent again:',
      alreadyCertified_other: '{{count}} files are already certified, so they were not sent again:',
      alreadyCertifiedAs: 'already certified on {{when}} as “{{name}}”',
      alreadyQueuedAs: 'already waiting to be certified since {{when}} as “{{name}}”',
      certifyAgain_one: 'Certify it again',
      certifyAgain_other: 'Certify them again',
      dismiss: 'Dismiss',
      writingRegister: 'Writing the register…',
      wroteRegister_one:
        'Wrote the register of {{count, number}} certification to {{file}}: who certified what and when, and every removal. Beside it, {{events}} has each event, one per row. Both open in Excel.',
      wroteRegister_other:
        'Wrote the register of {{count, number}} certifications to {{file}}: who certified what and when, and every removal. Beside it, {{events}} has each event, one per row. Both open in Excel.',
      savingEvidence: 'Saving the evidence…',
      savedEvidence_one:
        'Saved the evidence of {{count}} certification in {{dir}}: a certificate and a receipt, the register, and verify.html for whoever receives it.',
      savedEvidence_other:
        'Saved the evidence of {{count}} certifications in {{dir}}: a certificate and a receipt for each, the register, and verify.html for whoever receives it.',
      savingCertificate: 'Saving the certificate…',
      savedCertificate:
        'Saved the certificate of {{name}} as {{file}}. The receipt is inside it: the PDF alone is enough to check.',
      openFolder: 'Open folder',
      saveUnsealed: 'Save it unsealed',
      removed_one: 'Removed {{count, number}} certification that was never anchored.',
      removed_other: 'Removed {{count, number}} certifications that were never anchored.',
      kept_one:
        '{{count, number}} stays: it is anchored or on its way to the service, and keeps its evidence.',
      kept_other:
        '{{count, number}} stay: they are anchored or on their way to the service, and keep their evidence.',
      sendingAgain_one: 'Sending {{count}} certification again.',
      sendingAgain_other: 'Sending {{count}} certifications again.',
    },
    filters: {
      show: 'Show',
      all: 'All',
      waiting: 'Waiting',
      anchored: 'Anchored',
      failed: 'Failed',
      withCount: '{{label}} ({{count, number}})',
      search: 'Search',
      searchPlaceholder: 'File name or hash',
      matter: 'Matter',
      allMatters: 'All matters',
      saveEvidence: 'Save evidence…',
      exportRegister: 'Export register…',
    },
    selection: {
      region: 'Chosen certifications',
      chosen_one: '{{count}} chosen',
      chosen_other: '{{count}} chosen',
      saveEvidence: 'Save their evidence…',
      exportRegister: 'Export their register…',
      sendAgain_one: 'Send {{count}} failed again',
      sendAgain_other: 'Send {{count}} failed again',
      clear: 'Clear choice',
      allShown: 'All certifications shown are chosen',
      remove: 'Remove…',
      removeQuestion: 'Remove the chosen certifications?',
      removeExplain:
        'Only those never anchored are removed: never sent, or failed for good. Those anchored or on their way to the service stay, with their evidence. The register records each removal and who made it.',
      keep: 'Keep them',
      confirmRemove: 'Remove',
    },
    rowMenu: {
      label: 'What to do with {{name}}',
      details: 'Open details',
      showInFolder: 'Show in folder',
      saveCertificate: 'Save certificate (PDF)…',
      verify: 'Verify this file…',
      remove: 'Remove…',
    },
    list: {
      label: 'Certifications',
      choose: 'Choose {{name}}',
      chooseAll: 'Choose all certifications shown',
      columns: { file: 'File', matter: 'Matter', event: 'Event', state: 'State', added: 'Added' },
      notLoaded:
        'These certifications could not be shown: {{reason}} Nothing is lost: they are still on this computer. Try again; if it keeps happening, restart Evidence Desk and tell your IT department.',
      tryAgain: 'Try again',
      noMatch: 'No certification matches.',
      empty: 'Nothing here yet. Drop documents anywhere in this window, or use “Add files”.',
      loading: 'Loading…',
      notLoadedRow: 'Not loaded',
      noMatter: '—',
      time: {
        confirmed: 'time confirmed',
        confirmedBy: 'Time confirmed by {{authority}} (RFC 3161 timestamp).',
        waiting: 'time pending',
        notAsked: 'no independent time',
      },
    },
    state: {
      waiting: 'Waiting',
      waitingOffline: 'Waiting (offline)',
      sending: 'Sending',
      pending: 'Pending',
      pendingService: 'Pending · the service says “{{state}}”',
      lastCheckFailed: '{{state}} · last check failed',
      verified: 'Anchored ✓ verified',
      invalid: 'Anchored — evidence did not verify',
      unverifiable: 'Anchored — not checkable here',
      failed: 'Failed',
      unknownReason: 'unknown reason',
    },
    meaning: {
      queued: 'Its fingerprint is queued on this computer and will be sent to the certification service.',
      submitting: 'Its fingerprint is being sent to the certification service.',
      pending:
        'The service has received its fingerprint and will record it in its public log; this usually takes minutes.',
      verified:
        'Its fingerprint is recorded in the service’s public log, and this computer has checked the proof: anyone can confirm that this exact content existed at the time shown, without trusting Evidence Desk.',
      invalid:
        'The service says it is recorded, but the proof it sent did not check out. Do not rely on this certification; certify the file again.',
      unverifiable:
        'The service says it is recorded, but its proof is in a form this computer cannot check. Keep the receipt: it can be checked where that form is known.',
      failed:
        'This certification did not succeed and proves nothing. The reason is below; you can send it again.',
    },
    batch: {
      title_one: 'Certify {{count}} item',
      title_other: 'Certify {{count}} items',
      explain: 'Only a fingerprint (SHA-256 hash) of each file is sent. The files never leave this computer.',
      matter: 'Matter (case or client-matter number, optional)',
      assetType: 'Kind of document',
      sourceSystem: 'Source system',
      event: 'What happened to them',
      eventHint: 'The service’s code for it: capital letters and underscores, like CONTRACT_EXECUTED.',
      eventInvalid: 'Use capital letters, digits and single underscores, like CONTRACT_EXECUTED.',
      otherEvent: 'Something else…',
      chooseEvent: 'Choose what happened…',
      otherEventLabel: 'The service’s code for what happened',
      otherKind: 'Another kind…',
      otherKindLabel: 'Kind of document, in your words',
      files: 'The files',
      moreFiles_one: 'and {{number}} more file',
      moreFiles_other: 'and {{number}} more files',
      who: 'Who is certifying',
      whoHint:
        'Asked once: your name and firm are written on every certificate you make here. Change them in Settings.',
      yourName: 'Your name',
      yourFirm: 'Your firm',
      cancel: 'Cancel',
      certify: 'Certify',
    },
    details: {
      title: 'Certification',
      loading: 'Loading…',
      demo: 'DEMO — made on a sandbox: real cryptography, but no legal weight.',
      what: 'What was certified',
      file: 'File',
      size: 'Size',
      bytes: '{{size}} ({{bytes}} bytes)',
      sha256: 'SHA-256',
      location: 'Location',
      showInFolder: 'Show in folder',
      copy: 'Copy',
      copied: 'Copied',
      copyFailed: 'Could not copy',
      which: 'Recorded as',
      event: 'Event',
      assetType: 'Kind of document',
      sourceSystem: 'Source system',
      codes: 'Event and kind, as the service records them',
      watchedFolder: 'Watched folder',
      changedAfter: 'Changed after certification',
      earlierCertification: 'The file changed after certification {{id}}: open it',
      matter: 'Matter',
      noMatter: 'None given',
      when: 'When',
      certifiedAt: 'Certified',
      anchoredAt: 'Anchored',
      notAnchored: 'Not yet',
      timeConfirmed: 'Time confirmed',
      timeConfirmedBy: 'by {{authority}} (RFC 3161 timestamp)',
      timeAsked: 'Asked for; waiting for the timestamping authority.',
      timeNotYet: 'Not yet, and asked again later: {{reason}}',
      noTimestamp: 'No timestamping authority is set for this profile: the time rests on the service alone.',
      utcTitle: 'UTC: {{iso}}',
      where: 'Who and where',
      certifiedBy: 'Certified by',
      byOn: '{{user}} on {{computer}}',
      unknownPerson: 'Not recorded (certified before Evidence Desk recorded it)',
      environment: 'Environment',
      service: 'Service',
      embeddedService: 'Built into Evidence Desk, on this computer',
      unknownService: 'Not recorded',
      timeline: 'Timeline',
      technical: 'Technical details',
      certificationId: 'Certification id (service)',
      requestId: 'Request id',
      serviceState: 'Service state',
      logPosition: 'Position in the log',
      entryOf: 'Entry {{entry}} of {{of}}',
      lastCheck: 'Last check',
      evidenceCheck: 'Evidence',
      notAnchoredYet: 'Not anchored yet.',
      evidence: 'The evidence, as received',
      rawAnswer: 'The service’s last answer, as received',
      none: '—',
      sendAgain: 'Send again',
      saveEvidence: 'Save evidence…',
      saveCertificate: 'Save certificate (PDF)…',
      dragOut: 'Or drag out:',
      dragCertificate: 'Certificate (PDF)',
      dragReceipt: 'Receipt (JSON)',
      dragTitle: 'Drag onto the desktop, a folder or an email',
      remove: 'Remove…',
      removeQuestion: 'Remove this certification?',
      removeNeverSent:
        'Remove <strong>{{name}}</strong> from the list? It was never sent. The register will record that you removed it.',
      removeNeverAnchored:
        'Remove <strong>{{name}}</strong> from the list? It was never anchored. The register will record that you removed it.',
      keep: 'Keep it',
      confirmRemove: 'Remove',
      close: 'Close',
      states: {
        queued: 'queued',
        submitting: 'sending',
        pending: 'pending',
        anchored: 'anchored',
        failed: 'failed',
      },
    },
    verify: {
      title: 'Verify a document',
      explain:
        'Drop a document here, with its receipt or certificate if you have one, or choose them. Nothing leaves this computer.',
      chooseDocument: 'Choose document…',
      noDocument: 'No document yet',
      chooseProof: 'Choose receipt or certificate…',
      optional: 'Optional',
      checking: 'Checking {{name}}…',
      waiting: 'Waiting for a document.',
      couldNotVerify: 'Could not verify',
      verifiedHere: 'Verified: this document is certified here',
      certifiedAs: 'Certified as “{{name}}” on {{when}}. {{message}}',
      certifiedNotVerified: 'Certified here, but not verified',
      notCertifiedVersion: 'Not the certified version',
      changedSince: 'A file named “{{name}}” was certified on {{when}}, but its content has changed since.',
      noCertification: 'No certification of this document on this computer',
      giveProof: 'To check it anyway, give its receipt or certificate as well.',
      verdicts: {
        verifiedSealBroken:
          'Verified against the receipt inside, but this certificate PDF was changed after it was sealed',
        verified: 'Verified: this is the certified document',
        content_differs: 'Not the certified document',
        receipt_invalid: 'The proof does not hold together',
        untrusted_key: 'Consistent, but signed by a log key you have not trusted',
        not_anchored: 'Not verifiable yet: the certification was not anchored',
        timestamp_invalid: 'The timestamp does not hold',
        untrusted_tsa: 'Consistent, but timestamped by an authority you have not trusted',
      },
      why: {
        verifiedLog:
          'This is exactly the certified content for the event “{{event}}”, certified {{certifiedAt}}, anchored {{anchoredAt}} (entry {{entry}} of {{size}} in the log, signed by the trusted log key {{key}}…).',
        verifiedLogV1:
          'This is exactly the certified content, anchored {{anchoredAt}} (entry {{entry}} of {{size}} in the log, signed by the trusted log key {{key}}…).',
        timeConfirmed: 'Time confirmed by {{authority}} at {{when}} (RFC 3161).',
        timeOnly:
          "This content existed at {{when}}, according to {{authority}} (RFC 3161 timestamp); the service's own evidence cannot be checked here.",
        noTimestamp: 'No independent timestamp: the time rests on the log alone.',
        content_differs:
          'This is not the certified file: the proof is for content with SHA-256 {{sha256}} (its name is stated as “{{file}}”), and this file’s content is different.',
        receipt_invalid: {
          format: 'This is not an Evidence Desk receipt or certificate that this version can read.',
          copy: 'The receipt was edited after it was made: what it says under “{{field}}” is not what the service signed. Do not rely on it: ask whoever sent it for the original receipt or certificate.',
          leaf: 'The receipt was altered or damaged: the entry the service signed is for another certification than the one it describes. Do not rely on it: ask whoever sent it for the original receipt or certificate.',
          proof:
            'The receipt was altered or damaged: it does not prove that this certification is in the service’s log. Do not rely on it: ask whoever sent it for the original receipt or certificate.',
          root: 'The receipt was altered or damaged: its parts come from different states of the service’s log. Do not rely on it: ask whoever sent it for the original receipt or certificate.',
          signature:
            'The receipt was altered or damaged: the service’s signature on it does not hold. Do not rely on it: ask whoever sent it for the original receipt or certificate.',
          key_id: 'The log key in the receipt does not match its own fingerprint: the receipt was altered.',
          ambiguous:
            'The certificate carries more than one receipt, so which one it certifies is ambiguous: it is refused.',
          limit: 'The proof was refused: {{bound}}.',
        },
        timestamp_invalid: {
          format: 'The independent timestamp cannot be read.',
          status: 'The authority did not grant the timestamp.',
          path: 'The timestamp does not cover this certification.',
          imprint: 'The timestamp is for other data than this certification.',
          nonce: 'The timestamp is not the answer to the request it claims to answer.',
          signature: 'The authority’s signature on the timestamp does not hold.',
          usage: 'The certificate that signed the timestamp is not for timestamping.',
          signer_binding: 'The timestamp does not name the certificate that signed it.',
          validity: 'The timestamp’s time lies outside its signer’s validity.',
          chain: 'The timestamp’s certificate does not lead to a trusted root.',
          revoked:
            'The timestamping authority’s certificate was revoked before it signed the timestamp, or because its key was compromised: its time cannot be relied on.',
          record:
            'The evidence record does not hold: it does not lead from this document to its timestamps, or a timestamp in it does not hold.',
        },
        untrusted_key:
          'The receipt is consistent, but signed by a log key this computer does not trust (fingerprint {{fingerprint}}). Compare it with the fingerprint the service publishes; if they match, trust it and check again.',
        untrusted_tsa:
          'The receipt is consistent, but its time was confirmed by {{authority}}, whose root this computer does not trust (fingerprint {{fingerprint}}).',
        not_anchored:
          'The proof matches this document, but it was made before the service anchored the certification, so it cannot be checked yet. Once the certification is anchored (usually within minutes), save its receipt or certificate again in Evidence Desk and check that one.',
        seal: {
          sealed: 'The certificate PDF is sealed by {{authority}} ({{when}}) and has not changed since.',
          standing: 'The sealing authority’s standing then: {{standing}}.',
          unsealed: 'The certificate PDF is not sealed: only the receipt inside it was checked.',
          untrusted:
            'The certificate PDF is sealed by {{authority}}, whose root you have not trusted (fingerprint {{fingerprint}}): its seal was not relied on.',
          broken:
            'The certificate PDF was changed after it was sealed: its seal no longer holds. The receipt inside may still prove the document, but do not rely on anything else in this PDF.',
        },
        demo: 'DEMO: this certification was made on a sandbox. Its cryptography is real, but it carries no legal weight.',
      },
      signedHeading: 'Signed',
      statedHeading: 'Stated by whoever made this receipt, not signed',
      facts: {
        event: 'Event',
        sourceSystem: 'Source system',
        certifiedAt: 'Certified at',
        anchoredAt: 'Anchored at',
        logEntry: 'Log entry',
        logEntryValue: '{{entry}} of {{size}}',
        certificationId: 'Certification id',
        timeConfirmedAt: 'Time confirmed at',
        timeConfirmedBy: 'Time confirmed by',
        timeStanding: 'Authority’s standing then',
        record: 'Evidence record (RFC 4998)',
        keyFingerprint: 'Log key fingerprint',
        fileName: 'File name',
        matter: 'Matter',
        certifiedBy: 'Certified by',
        login: 'Computer login',
        queuedAt: 'Queued at (computer clock)',
        seenAnchoredAt: 'Seen anchored at (computer clock)',
      },
      close: 'Close',
    },
    verifySet: {
      title: 'Verify a set of documents',
      open: 'Verify a whole set…',
      explain:
        'Drop a production or a data room (folders or files), and its reference: the evidence kit, the register (CSV) or a load file (DAT). Without one, it is checked against the certifications on this computer. Nothing leaves this computer.',
      chooseSet: 'Choose folder…',
      noSet: 'No documents yet',
      chooseKit: 'Kit folder…',
      chooseFile: 'Kit zip, register or load file…',
      thisComputer: 'The certifications on this computer',
      check: 'Check',
      waiting: 'Waiting for the documents.',
      listing: 'Listing the documents: {{files}} so far.',
      reading: 'Read {{done}} of {{total}} documents.',
      progress: 'Progress',
      couldNotVerify: 'Could not verify the set',
      passed: 'Passed: everything in the reference was found and verified',
      notPassed: 'Not passed: see the lines below',
      noDocuments: 'Not passed: no documents were found to check',
      emptyReference: 'Not passed: the reference holds nothing to check against',
      untrustedHeadline: 'Not passed yet: certified, but signed by a key you have not trusted',
      untrusted_one:
        '{{count}} document is certified by this kit, but its signatures rest on a key this computer has not trusted. Before trusting it, compare its fingerprint with the one the service publishes (from the service itself, never from whoever sent the kit; your IT department can help):',
      untrusted_other:
        '{{count}} documents are certified by this kit, but their signatures rest on keys this computer has not trusted. Before trusting them, compare their fingerprints with the ones the service publishes (from the service itself, never from whoever sent the kit; your IT department can help):',
      logKeyFingerprint: 'Log key: {{fingerprint}}',
      tsaRootFingerprint: 'Timestamping authority’s root: {{fingerprint}}',
      trustKit: 'They match: check again, trusting this kit’s keys',
      trustedFromKit: 'Checked trusting this kit’s keys, as you chose. Their fingerprints:',
      demo: 'DEMO: certifications of this reference were made on a sandbox. Their cryptography is real, but they carry no legal weight.',
      against: {
        kit: 'Against the evidence kit {{source}}.',
        register: 'Against the register {{source}}.',
        'load-file': 'Against the load file {{source}}.',
        'this-computer': 'Against the certifications on this computer.',
      },
      referenceProblem: 'Not used from the reference: {{where}}: {{why}}',
      show: 'Show',
      all: 'All ({{count, number}})',
      verdicts: {
        verified: 'Verified',
        untrusted: 'Certified, key not trusted',
        changed: 'Changed',
        renamed: 'Renamed',
        not_certified: 'Not certified',
        missing: 'Missing',
        unreadable: 'Unreadable',
      },
      results: 'One line per document',
      document: 'Document',
      verdict: 'Verdict',
      certification: 'Certification',
      signed: 'Certified {{when}}',
      notSigned: 'Matched by content; nobody signed a time for it',
      more: '{{count}} more lines are in the report.',
      saveReportPdf: 'Save report (PDF)…',
      saveReportCsv: 'Save report (CSV)…',
      saved: 'Saved the report to {{file}}.',
      close: 'Close',
    },
    records: {
      notRenewedYet_one:
        'Evidence record (RFC 4998) of {{count}} document: holds until {{until, when}}; Evidence Desk renews it before then.',
      notRenewedYet_other:
        'Evidence records (RFC 4998) of {{count}} documents: hold until {{until, when}}; Evidence Desk renews them before then.',
      renewed_one:
        'Evidence record (RFC 4998) of {{count}} document: last renewed on {{at, when}} by {{authority}}; renewed again automatically around {{next, when}}, nothing to do.',
      renewed_other:
        'Evidence records (RFC 4998) of {{count}} documents: last renewed on {{at, when}} by {{authority}}; renewed again automatically around {{next, when}}, nothing to do.',
      expired_one:
        'The evidence record of {{count}} document needs attention: the service’s log and the receipt still prove when the document was certified, but its timestamp can no longer be checked on its own: it was not renewed before the certificate of its newest timestamp expired. Ask IT to check the timestamping authority in Settings.',
      expired_other:
        'The evidence records of {{count}} documents need attention: the service’s log and the receipts still prove when the documents were certified, but their timestamps can no longer be checked on their own: they were not renewed before the certificate of their newest timestamp expired. Ask IT to check the timestamping authority in Settings.',
      waiting_one:
        'Renewal delayed: the evidence record of {{count}} document must be renewed before {{until, when}}. {{why}} Evidence Desk asks again; if this does not go away, check the timestamping authority in Settings.',
      waiting_other:
        'Renewal delayed: the evidence records of {{count}} documents must be renewed before {{until, when}}. {{why}} Evidence Desk asks again; if this does not go away, check the timestamping authority in Settings.',
      noAuthority_one:
        'The evidence record of {{count}} document is due for renewal, but the profile names no timestamping authority. Choose one in Settings before {{until, when}}.',
      noAuthority_other:
        'The evidence records of {{count}} documents are due for renewal, but the profile names no timestamping authority. Choose one in Settings before {{until, when}}.',
      notFound_one:
        'IT has retired SHA-256, so evidence records are renewed to SHA-512 from the documents themselves. {{count}} document was not found where it was certified or in a watched folder; its record stays as it is until you show Evidence Desk where it is now:',
      notFound_other:
        'IT has retired SHA-256, so evidence records are renewed to SHA-512 from the documents themselves. {{count}} documents were not found where they were certified or in a watched folder; their records stay as they are until you show Evidence Desk where they are now:',
      notFoundMatter: 'Matter {{matter}}: {{names}}',
      notFoundNoMatter: 'No matter: {{names}}',
      andMore: '{{names}} and {{count}} more',
      lookInFolder: 'Look in a folder…',
      openSettings: 'Open Settings',
    },
    watch: {
      title: 'Watched folders',
      explain:
        'Files that land in a watched folder are certified on their own, each once it has stopped changing: scans from the copier, exports from the document system. Only their fingerprints leave this computer. Evidence Desk watches while it runs, also from the tray.',
      none: 'No folder is watched yet.',
      couldNotRead: 'The watched folders could not be read: {{reason}} Open Settings to see them again.',
      add: 'Watch a folder…',
      status: {
        starting: 'Starting',
        catching_up: 'Catching up on what arrived',
        watching: 'Watching, {{how}}',
        paused: 'Paused',
        unavailable: 'Not being watched',
      },
      byEvents: 'told of each change',
      polledEvery: 'looking every {{seconds}} s (network share)',
      summary: 'Matter {{matter}} · {{eventType}} · {{assetType}} · {{include}} · {{subfolders}}',
      noMatter: 'none',
      everyFile: 'every file',
      withSubfolders: 'with subfolders',
      withoutSubfolders: 'without subfolders',
      receiptsBesideShort: 'receipts beside the files',
      pause: 'Pause',
      resume: 'Resume',
      pauseFolder: 'Pause watching {{path}}',
      resumeFolder: 'Resume watching {{path}}',
      remove: 'Stop watching',
      removeFolder: 'Stop watching {{path}} (its certifications stay)',
      setUp: 'Set up watching {{path}}',
      include: 'Which files (leave empty for every file)',
      includePlaceholder: 'for example *.pdf',
      subfolders: 'Also files in subfolders',
      receiptsBeside: 'Write each receipt beside its file once anchored',
      settle: 'Certify a file once it has not changed for (seconds)',
      method: 'How new files are noticed',
      methods: {
        auto: 'Decide from where the folder is (network shares are looked at regularly)',
        events: 'The system tells of each change (a folder on this computer)',
        poll: 'Look regularly (a network share or mapped drive)',
      },
      pollSeconds: 'Look every (seconds)',
      cancel: 'Cancel',
      watch: 'Watch this folder',
      header_one: 'Watching {{count}} folder',
      header_other: 'Watching {{count}} folders',
      fromFolder: 'from {{name}}',
      fromFolderTitle: 'Found in the watched folder {{path}}',
      bannerOne: 'A watched folder is not being watched. {{why}}',
      bannerMany: '{{count}} watched folders are not being watched. Open Settings to see why.',
      openSettings: 'Open settings',
    },
    settings: {
      title: 'Settings',
      loading: 'Loading the current settings…',
      couldNotRead: 'The current settings could not be read: {{reason}}',
      service: 'Where certifications go',
      environmentLabel: 'Environment',
      environments: {
        embedded: 'Embedded sandbox (demo, no credentials)',
        'service-sandbox': 'The service’s sandbox',
        production: 'Production',
        custom: 'Custom',
      },
      profileId: 'Profile name (lower case)',
      baseUrl: 'Service address (base URL)',
      tokenUrl: 'Token address (token URL)',
      clientId: 'Client id',
      clientSecret: 'Client secret',
      apiKey: 'API key (optional)',
      apiSecret: 'API secret (optional)',
      hmacKey: 'Signing key (HMAC)',
      signRequests: 'Sign requests',
      logKey: 'Log key (optional: PEM public key or SHA-256 fingerprint)',
      savedSecret: '(saved in the keychain — type to replace)',
      invalid: {
        id: 'Use lower-case letters, digits and dashes, starting with a letter or digit (at most 40).',
        url: 'Enter a full address, like https://api.example.com.',
        urlHttps:
          'Production needs an address starting with https:// (plain http:// only reaches this computer).',
        urlCredentials: 'Leave the user name and password out of the address; use the client id and secret.',
        clientId: 'Enter the client id the service gave you.',
        clientSecret: 'Enter the client secret the service gave you.',
        hmacKey: 'Signing is on: enter the signing key the service gave you.',
        logKey:
          'Paste a PEM public key (-----BEGIN PUBLIC KEY-----…) or a fingerprint of 64 hexadecimal characters.',
        tsaUrl: 'Enter the authority’s full address, like http://timestamp.digicert.com.',
        tsaPolicy: 'A policy is an object identifier, like 1.2.3.4; or leave it empty.',
        tsaCa: 'Paste the authority’s root certificate (PEM, starting -----BEGIN CERTIFICATE-----).',
        tsaInterval: 'Enter a whole number of seconds, from 0 to 86400 (a day); or leave it empty.',
        other: 'Check this value.',
      },
      tsa: {
        title: 'Independent time (RFC 3161)',
        use: 'Have a timestamping authority confirm the time of each batch',
        url: 'Authority address',
        policy: 'Policy (optional object identifier)',
        interval: 'Least time between two requests (seconds)',
        intervalHint:
          'Public authorities block or bill a computer that asks faster than they allow; Evidence Desk asks one request at a time, this far apart. Filled in for the well-known ones.',
        suggestions:
          'Well-known authorities: {{names}}. Nothing is fetched: take the root certificate from the authority’s own site and paste it below.',
        roots: 'Root certificate(s) to trust it by (PEM)',
        embedded:
          'The demo sandbox confirms each batch’s time with its own DEMO timestamping authority (RFC 3161).',
      },
      fixFirst: 'Some settings need attention; they are marked above.',
      preferences: 'Preferences',
      you: 'You and your firm',
      sourceSystem: 'Source system',
      sourceSystemHint:
        'The name the service records as where your certifications come from. Your IT department may set it.',
      sourceSystemByPolicy: 'Set by your IT department for this computer.',
      receiptsBeside:
        'Save a receipt beside each certified file once it is anchored (<code>FILE.receipt.json</code>)',
      language: 'Language',
      systemLanguage: 'As on this computer ({{name}})',
      launchAtLogin: 'Start Evidence Desk when I log in, so certifications keep going in the background',
      testing: 'Testing the connection…',
      tested: 'Connected: the service issued a token (valid {{seconds}} s).',
      saved: 'Saved.',
      test: 'Test connection',
      close: 'Close',
      save: 'Save',
    },
    errors: {
      generic: 'Something went wrong in Evidence Desk.',
    },
  },
  /**
   * What the core says (protocol/said.ts): reasons on rows, checks of evidence, the connection,
   * timeline notes and errors. The service’s own words are filled in as they came, in quotes.
   */
  said: {
    asWritten: '{{text}}',
    /** A certification's state in a sentence, one word each (docs/glossary.md). */
    state: STATE_WORDS,
    preferences: {
      sourceSystemByPolicy:
        'Your IT department sets the source system for this computer (policy SourceSystem).',
    },
    /** The service's codes for events and kinds of document, as legal staff say them (protocol/vocabulary.ts). */
    vocabulary: {
      event: {
        DOCUMENT_SIGNED: 'Signed',
        DOCUMENT_RECEIVED: 'Received',
        DOCUMENT_SENT: 'Sent',
        DOCUMENT_PRODUCED: 'Produced to the other side',
        DOCUMENT_FILED: 'Filed with the court',
        EVIDENCE_COLLECTED: 'Collected as evidence',
        DOCUMENT_APPROVED: 'Approved',
        DOCUMENT_ARCHIVED: 'Archived',
      },
      kind: {
        contract: 'Contract',
        correspondence: 'Correspondence',
        exhibit: 'Exhibit',
        scan: 'Scan',
        email: 'Email',
        invoice: 'Invoice',
        image: 'Image',
        recording: 'Recording',
        document: 'Other document',
      },
    },
    /** Each bound of what is read from the other side (protocol/limits.ts, docs/security.md). */
    limits: BOUND_WORDS,
    file: {
      notADocument: 'This is {{kind}}, not a document, so it cannot be certified.',
      kind: {
        fifo: 'a pipe',
        socket: 'a socket',
        device: 'a device',
        other: 'not a regular file',
      },
      folderLoop: 'This folder contains a link back to itself; it was not expanded again.',
      noPermissionFor: 'You do not have permission to read {{name}}.',
      noPermission: 'You do not have permission to read this file.',
      missing: '{{name}} does not exist (it may have been moved or deleted).',
      tooDeep: `{{name}} lies more than ${LIMITS.pathDepth} folders deep and was not opened.`,
      linkOutside: '{{name}} is a link to somewhere outside the folder you chose: it was not followed.',
      linkedAgain: '{{name}} is a link to a folder already listed: it was not listed again.',
      linkLoop: '{{name}} is a link that points back to itself.',
      unreadable: 'The file could not be read ({{code}}).',
      changedWhileHashing: 'The file changed while it was being hashed — save it, then add it again.',
      replaced:
        'This was replaced by something that is not a document (a pipe or device) while it was being added.',
      disappeared: 'The file disappeared before it could be hashed.',
      hashingFailed: 'Hashing failed: {{reason}}.',
      doesNotExist: '{{path}} does not exist or cannot be read.',
      notRegular: '{{path}} is not a regular file.',
      couldNotRead: '{{path}} could not be read ({{code}}).',
    },
    service: {
      said: 'The service said: “{{said}}”',
      answeredStatus: 'The service answered {{status}} {{statusText}}.',
      notJson: 'The service answered with something that is not JSON.',
      captivePortal:
        'Something answered with a web page instead of the service’s data: a Wi-Fi or proxy sign-in page, or a maintenance page. If a web browser shows a sign-in page, sign in to the network, then try again.',
      nothingToRead:
        'The service answered {{status}} with nothing to read and no address of its own to read it from.',
      redirected:
        'The service sent this request elsewhere ({{status}} to {{target}}); Evidence Desk does not follow it. Check the service address in Settings.',
      noAddress: 'no address',
      credentialsRefused: 'The service refused the client credentials: {{reason}}',
      tokenNotJson: 'The token endpoint answered with something that is not JSON.',
      noAccessToken: 'The token endpoint sent no access token.',
      withdrawn: 'The request was withdrawn before it completed.',
      timeout: 'The service did not answer in time.',
      unreachable: 'The service cannot be reached: {{reason}}.',
      requestNotMade: 'The request could not be made: {{reason}}',
      noLogKey: 'The service did not publish a log key.',
      unreadableConsistency: 'The service sent a consistency proof this app cannot read.',
      notACertification: 'The service answered with something that is not a certification.',
      noId: 'The service did not say which certification this is (no id).',
      reportsFailed: 'The service reports this certification as {{state}}.',
      unknownState:
        'The service says this certification is “{{word}}”, a state Evidence Desk does not know; it keeps asking until the service says anchored or failed.',
      lost: 'The service no longer knows this certification.',
      lastLookFailed: 'The last look at the service failed: {{reason}}',
    },
    network: {
      refused: 'nothing answers at that address (the service may be down, or the address wrong)',
      unknownName: 'that server name is unknown (check the address, or the network connection)',
      lookupFailed: 'the server name could not be looked up (the network may be down)',
      cutOff: 'the connection was cut off',
      timedOut: 'the connection timed out',
      hostUnreachable: 'the server cannot be reached from this network',
      noNetwork: 'this computer is not connected to a network',
      other: 'the network said “{{detail}}”',
      proxyWantsPassword:
        'the proxy asks for a user name and password that Evidence Desk was not given: ask IT to let Evidence Desk through, or to set the proxy up for this computer',
      proxyWantsPasswordHere:
        'the proxy asks for a user name and password: give them in the proxy address (HTTPS_PROXY=http://user:password@proxy:port), or ask IT for a proxy that lets Evidence Desk through',
      proxyRefused: 'the proxy refused or could not make the connection: ask IT to allow {{host}}',
      proxyRefusedStatus: 'the proxy refused the connection ({{status}}): ask IT to allow {{host}}',
      certificateUntrusted:
        "the certificate presented for {{host}} is not trusted on this computer. If your organisation inspects TLS traffic, ask IT to install its CA certificate in the system's certificate store",
      certificateUntrustedIssuer:
        'the certificate presented for {{host}}, issued by "{{issuer}}", is not trusted on this computer. If your organisation inspects TLS traffic, ask IT for its CA certificate and give it with NODE_EXTRA_CA_CERTS or "profile set --ca-file"',
      certificateUntrustedHere:
        'the certificate presented for {{host}} is not trusted on this computer. If your organisation inspects TLS traffic, ask IT for its CA certificate and give it with NODE_EXTRA_CA_CERTS or "profile set --ca-file"',
      certificateExpired: "the service's certificate has expired ({{host}})",
      certificateWrongName:
        'the certificate presented is not for {{host}}: something on the network may be intercepting the connection',
    },
    sync: {
      paused: 'Sending is paused; certifications wait here until it is resumed.',
      standbyApp: 'The Evidence Desk app on this computer is sending this queue; this one waits its turn.',
      standbyCommandLine:
        'This queue is being sent by the command line (evidence-desk); this one takes over when it is done.',
      takenOver: 'Another process took over sending this queue; this one stopped sending at once.',
      internalError: 'Sending was interrupted by an internal error; it will be tried again.',
      didNotSettle: 'The certifications did not settle in time; they stay queued and will go on syncing.',
      blocked: 'Sending is blocked: {{reason}} The certifications stay queued.',
      cannotBeUsed: 'the service cannot be used with these settings.',
    },
    history: {
      acceptedAs: 'accepted as {{serviceId}}',
      sentAgain: 'sent again on request',
      sentAgainBy: 'sent again on request of {{user}}',
      resumed: 'resumed after the app stopped while sending',
      serviceReports: 'the service reports “{{state}}”',
      checkedAgain: 'checked again: {{result}}',
    },
    evidence: {
      none: 'The service sent no evidence to check; its answer is kept as received.',
      unknownFormat: 'The evidence is in a format this app cannot check; it is kept as received.',
      keptAsReceived: '{{reason}} The evidence is kept as received.',
      didNotVerify: 'The evidence did not verify: {{reason}}',
      verified: 'Evidence verified: entry {{entry}} of {{size}} in the log, signed {{signedAt}}.',
      notAnchoredYet: 'Not anchored yet ({{state}}).',
      failure: {
        evidence_unreadable: 'the evidence cannot be read',
        leaf_hash_mismatch: 'its log entry does not match the certification it describes',
        asset_hash_mismatch: 'it is for other content than this file',
        certification_mismatch: 'it is for another certification',
        inclusion_proof_invalid: 'the proof does not lead to the log’s signed root',
        tree_head_mismatch: 'the proof and the signed tree head describe different logs',
        tree_head_signature_invalid: 'the log’s signature does not hold',
        key_id_mismatch: 'it names a log key other than the one trusted',
      },
      logKeyUnreadableSetting: 'The log key given in the settings is not a readable public key.',
      logKeyNotExpected:
        'The service publishes a log key with fingerprint {{fingerprint}}, not the {{expected}} given in the settings; its evidence is not trusted.',
      logKeyNotFetched:
        'The log key needed to check the evidence could not be fetched; it will be asked for again later.',
      logKeyUnreadable: 'The service published a log key that is not a readable Ed25519 public key.',
      logKeyChanged:
        "The service's log key changed (fingerprint {{before}}… is now {{after}}…). Evidence is not checked with the new key until you accept it, after comparing its fingerprint with the one the service publishes (Settings, or evidence-desk profile trust-key).",
      logRewritten:
        "The service's log rewrote its history: its tree head of {{newer}} entries does not extend the one of {{older}} entries seen before. No evidence from this log can be trusted; tell the service's operator and keep the receipts you have.",
    },
    timestamp: {
      httpStatus: 'The timestamping authority ({{host}}) answered HTTP {{status}}.',
      webPage:
        "The timestamping authority's address ({{host}}) answered with a web page, not a timestamp: check the address, or whether a proxy or sign-in page is in the way.",
      timeout: 'The timestamping authority ({{host}}) did not answer within {{seconds}} seconds.',
      unreachable: 'The timestamping authority ({{host}}) could not be reached.',
      notAResponse: 'The authority’s answer ({{host}}) is not an RFC 3161 timestamp response.',
      noToken: 'The authority ({{host}}) granted the request but sent no timestamp token.',
      refused: 'The timestamping authority ({{host}}) {{what}}.',
      refusedSaying: 'The timestamping authority ({{host}}) {{what}}: “{{said}}”.',
      status: {
        rejected: 'rejected the request',
        waiting: 'is waiting (it answered "waiting")',
        revocationWarning: 'warns that its certificate is about to be revoked',
        revoked: 'says its certificate was revoked',
        other: 'answered status {{status}}',
      },
      noLongerSet: 'The timestamping authority this batch was queued for is no longer set for its profile.',
      rationed:
        'The timestamping authority ({{host}}) asked not to be asked again before {{until}}: Evidence Desk waits until then.',
      askedNoAnswer:
        'Asked the timestamping authority ({{host}}); no answer yet. Evidence Desk asks again while it runs, and the next time it starts.',
      check: {
        format: 'The timestamp from {{host}} is not an RFC 3161 token that can be read.',
        status: 'The timestamping authority ({{host}}) did not grant the timestamp.',
        path: 'The timestamp from {{host}} does not cover this batch.',
        imprint:
          'The timestamp from {{host}} is for other data than this batch (its message imprint differs).',
        nonce: 'The timestamp from {{host}} answers another request (its nonce is not ours).',
        signature: 'The signature on the timestamp from {{host}} does not hold.',
        usage:
          'The certificate that signed the timestamp from {{host}} is not one for timestamping (RFC 3161 requires the critical timeStamping extended key usage).',
        signer_binding:
          'The timestamp from {{host}} does not name the certificate that signed it (ESSCertID): another certificate could be passed off as its signer.',
        validity: 'The timestamp from {{host}} was made outside its signing certificate’s validity.',
        chain:
          'The certificate of the timestamping authority ({{host}}) does not lead to a trusted root at the time of the timestamp.',
        revoked:
          'The certificate of the timestamping authority ({{host}}) was revoked before it signed the timestamp: choose another authority in the profile.',
        untrusted:
          'The timestamp holds together, but {{authority}} chains to a root certificate this computer does not trust (SHA-256 fingerprint {{fingerprint}}). Compare it with the authority’s published root; if they match, add it to the profile.',
      },
      validation: {
        notCollected:
          'The information that lets anyone check this time after the authority’s certificate expires has not been collected yet: {{why}} Evidence Desk will try again later.',
        revoked:
          'The certificate of {{certificate}} was revoked on {{at}}, before it signed this timestamp: its time cannot be relied on. Choose another timestamping authority in the profile.',
        compromised:
          'The certificate of {{certificate}} was revoked on {{at}} because its key was compromised: its timestamps cannot be relied on. Choose another timestamping authority in the profile.',
        timeout: 'the status service at {{host}} did not answer within {{seconds}} seconds.',
        unreachable: 'the status service at {{host}} could not be reached.',
        httpStatus: 'the status service at {{host}} answered HTTP {{status}}.',
        tooLarge:
          'the answer from the status service at {{host}} is larger than any status or revocation list should be.',
        noSource:
          'The certificate of {{certificate}} names no status service (OCSP) and no revocation list (CRL): this time can be checked only while that certificate is valid.',
        answer: 'the answer from {{host}} about {{certificate}}: {{gap}}.',
      },
    },
    record: {
      notRenewed:
        'Proves the time above; not renewed yet; holds until {{until}} (its authority’s certificate expires then); renewing it before then extends that',
      renewedOnce:
        'Proves the time above; renewed once, on {{at}} by {{authority}}; holds until {{until}} unless renewed again before then',
      renewed:
        'Proves the time above; renewed {{count}} times, last on {{at}} by {{authority}}; holds until {{until}} unless renewed again',
      expired:
        'Needs attention: not renewed in time (the certificate of its newest timestamp expired on {{until}}); it no longer proves its time on its own',
      receiptKept:
        'Keeps this receipt’s own timestamp checkable: the receipt, its token and validation data inside, was timestamped again on {{at}} by {{authority}}; holds until {{until}} unless renewed before then',
      receiptKeptRenewed:
        'Keeps this receipt’s own timestamp checkable: the receipt, its token and validation data inside, was timestamped again on {{at}} by {{authority}} and last renewed on {{last}} by {{lastAuthority}}; holds until {{until}} unless renewed again',
      unlinked:
        'Its timestamps hold until {{until}}; it was renewed to SHA-512, and whether that renewal covers this document is checked with the document itself, not its SHA-256 alone',
    },
    standing: {
      good: 'In good standing at that time, according to signed status information ({{sources}}, kept with the timestamp)',
      revokedLater:
        'In good standing at that time, according to signed status information; revoked later, on {{at}}, for a reason other than a compromised key ({{sources}}, kept with the timestamp)',
      notShown:
        'Not proven by what was kept with the timestamp ({{gap}}): the time can be checked only while the authority’s certificate is still valid',
      gap: {
        not_kept: 'no revocation status was kept',
        missing: 'no status was kept for {{certificate}}',
        unknown: 'the status service does not know {{certificate}}',
        not_at_that_time: 'the status kept for {{certificate}} does not cover the time of the timestamp',
        unreadable: 'the status kept for {{certificate}} cannot be read',
        not_successful: 'the status service refused to answer about {{certificate}}',
        other_certificate: 'the status kept is about a certificate other than {{certificate}}',
        bad_signature: 'the signature on the status of {{certificate}} does not hold',
        unauthorised_responder:
          'the status of {{certificate}} is signed by someone its issuer did not authorise',
        other_issuer:
          'the revocation list kept for {{certificate}} is signed by someone other than its issuer',
      },
    },
    queue: {
      noCertification: 'There is no certification {{id}}.',
      notRemovable: '{{name}} has already been sent to the service and cannot be removed.',
      illegalTransition: 'This certification is {{from}} now, so it cannot become {{to}}.',
    },
    database: {
      tooNew:
        'The queue database was written by a newer Evidence Desk (schema {{current}}; this version knows {{known}}). Update the app; the file was left untouched.',
      damaged:
        'The queue database ({{path}}) {{what}}. It was left untouched; move it aside to start a new queue, or restore it from a backup.',
      locked:
        'The queue database ({{path}}) is locked by another program, probably another Evidence Desk. Close it and try again; nothing was changed.',
      notWritable:
        "The queue database ({{path}}) cannot be opened for writing ({{code}}). Check the folder's permissions.",
      cannotOpen: 'The queue database ({{path}}) could not be opened: {{reason}}',
      isDamaged: 'is damaged',
      isEmpty: 'is empty (0 bytes), which a queue never is',
      notOurs: 'is damaged or is not an Evidence Desk database',
    },
    profile: {
      logKeyLocked:
        'Your IT department decides which log keys this computer trusts (policy LockLogKeys): ask them to check the new key and trust it by policy (TrustedLogKeys).',
      noLongerAccepted:
        'The saved settings of "{{id}}" are no longer accepted ({{reasons}}); enter them again in Settings.',
      embeddedNeedsNoSettings: 'The embedded sandbox needs no settings.',
      unknown: 'There is no service profile "{{id}}".',
      secretMissing: 'The client secret for "{{id}}" is not in the keychain; enter it in the settings.',
      signingKeyMissing: 'Signing is on for "{{id}}" but its HMAC key is not in the keychain.',
      demoNotHere: 'The demo sandbox does not run in this program; choose a service profile in the settings.',
      keychainUnavailable: 'The system keychain could not be used: {{reason}}',
    },
    exports: {
      failed: '{{what}} could not be saved to {{path}}: {{why}}.',
      kit: 'The evidence kit',
      register: 'The register',
      report: 'The report',
      chosenPlace: 'the chosen place',
      certificate: 'The certificate',
      cancelled: 'Saving the evidence was stopped before it finished: nothing of it was kept.',
      certificateNotSealed:
        'The certificate of “{{name}}” could not be sealed: {{why}} It was not saved: save it again once the timestamping authority answers, or save it unsealed.',
      kitNotSealed:
        'The evidence kit could not be sealed: {{why}} Nothing of it was kept: save it again once the timestamping authority answers, or save it unsealed.',
      sealWaiting: {
        saved:
          'The evidence kit was saved, but it is not sealed yet: {{why}} Evidence Desk asks the timestamping authority again and adds the seal to the kit when it answers; next try: {{next, when}}. Until then, META-INF/seal-waiting.txt in the kit says so.',
        certificate:
          'The certificate of “{{name}}” is not saved yet: it could not be sealed: {{why}} Evidence Desk asks the timestamping authority again and saves the sealed certificate where you chose when it answers; next try: {{next, when}}.',
        waitingOne: 'One seal is waiting for the timestamping authority, for {{where}}: {{why}}',
        waitingMany:
          '{{count}} seals are waiting for the timestamping authority; the oldest is for {{where}}: {{why}}',
        folderGone:
          'the folder {{where}} is no longer there, so the sealed certificate could not be saved in it.',
        certificateGone: 'its certification is no longer in Evidence Desk, so its certificate was not saved.',
        sealed: 'The seal was added to the evidence kit {{where}}.',
        kitGone: 'the kit is no longer at {{where}}, so its seal cannot be added.',
        kitChanged:
          'the kit at {{where}} was changed since it was saved, so it is not sealed: save the evidence again.',
        refused: 'the timestamping authority did not seal it: {{why}}',
      },
      certificateNotAnchored:
        '“{{name}}” is not anchored yet: its certificate can be saved once it is, so that whoever receives it can check it.',
      why: {
        ENOENT: 'that folder does not exist',
        EACCES: 'Evidence Desk is not allowed to write there',
        EROFS: 'that place is read-only',
        ENOSPC: 'the disk is full',
        EDQUOT: 'the disk quota is used up',
      },
      verifierNotBuilt:
        'The offline verifier (verify.html) could not be built in this checkout, so no kit can be made: run npm run build:verifier and read what it says.',
      verifierMissing:
        'The offline verifier (verify.html) is missing from this installation, so no kit can be made. Reinstall Evidence Desk.',
    },
    watch: {
      notChosen: 'Choose the folder to watch in the folder dialog.',
      notAFolder: '{{path}} is not a folder.',
      folderMissing:
        '{{path}} is not there: it may have been moved, deleted, or be on a drive or share that is not connected. It is checked again every few seconds.',
      folderNoPermission:
        'You do not have permission to read {{path}}. It is checked again every few seconds.',
      folderUnreadable: '{{path}} cannot be read ({{code}}). It is checked again every few seconds.',
      alreadyWatched: '{{path}} is already watched.',
      noSuchFolder: 'No watched folder is {{folder}}.',
      badChoice: 'These choices cannot be used: {{detail}}.',
      badTiming: 'Poll every 5 seconds or more, and wait at least 100 ms for a file to settle.',
      fileFailed: '{{name}} could not be certified: {{why}}',
    },
    sets: {
      why: {
        cannotRead: 'it cannot be read ({{code}})',
        doesNotExist: 'it does not exist or cannot be read',
        noFieldNames: 'the first line does not name the fields (þfieldþ separated by 0x14)',
        noSuchField: 'there is no field named {{field}} (the fields are {{fields}})',
        noPathField:
          'no field holds the documents’ paths (the fields are {{fields}}); name it with --path-field',
        noHashField:
          'no field holds a hash (MD5, SHA-1 or SHA-256) (the fields are {{fields}}); name it with --hash-field',
        notWrapped: 'a field is not wrapped in þ…þ',
        fieldCount: 'it has {{count}} fields where the first line names {{named}}',
        emptyPath: 'its path is empty',
        notAHash: '{{field}} is not an MD5, SHA-1 or SHA-256 in hex: {{value}}',
        noHash: 'it has no hash',
        notARegister: 'it is not a register Evidence Desk can read ({{detail}})',
        noColumn: 'the register has no column {{columns}}',
        notAnchored: '{{name}} is {{state}}, not anchored: not counted',
        notASha256: 'its SHA-256 is not one: {{value}}',
        notAKit: 'it is not an evidence kit (it has no certifications folder)',
        notAZip: 'it is neither a kit folder nor a zip that can be read',
        notAFile: 'it is not a regular file (a pipe, a socket or a device): it was not opened',
        zipOverlapping: 'two of its files share the same compressed bytes (a zip bomb): it is refused',
        link: 'it is a link, not a receipt: not followed',
        folder: 'it is a folder, not a receipt',
        zipDamaged: 'the zip is damaged',
        notJson: 'it is not JSON',
        limit: 'refused: {{bound}}',
        receipt: {
          content_differs: 'The proof does not hold together: its content is not the one it names',
          receipt_invalid: 'The proof does not hold together',
          timestamp_invalid: 'The timestamp does not hold',
          untrusted_key: 'Consistent, but signed by a log key you have not trusted',
          not_anchored: 'Not verifiable yet: the certification was not anchored',
          untrusted_tsa: 'Consistent, but timestamped by an authority you have not trusted',
          verified: 'Verified',
        },
      },
      noReportYet: 'There is no report to save yet: verify a set first.',
      unreadableReference: 'The reference cannot be used: {{where}}: {{why}}.',
      caseOnly: 'the reference writes the name as {{name}} (only the case differs)',
    },
    calls: {
      unknown: 'That action does not exist.',
      internal: 'Something went wrong in Evidence Desk; the details are in its log.',
      invalidInput: 'Evidence Desk was asked something it cannot read: {{detail}}',
      notSavedHere: 'Evidence Desk shows only folders of what it saved itself.',
    },
  },
  /** The command line's own words (evidence-desk), in the language LANG or LC_ALL asks for. */
  cli: {
    usage:
      "Usage: evidence-desk <command> [options]\n\nCommands:\n  certify PATH... --event-type TYPE --asset-type TYPE [--source-system NAME] [--matter M] [--again]\n                [--wait [--timeout S]]\n                        hash files (folders expand) locally and queue their certification;\n                        the matter (case or client-matter number) stays on this computer;\n                        content already certified here is named and skipped, unless --again\n  sync [--wait [--timeout S]]\n                        send what is queued; with --wait, until every certification settles\n                        (progress on stderr; gives up waiting after S seconds, default 600: exit 4)\n  status [--list] [--state STATE] [--search TEXT] [--matter M] [--limit N]\n                        counts by state and by matter, connectivity, and optionally the rows\n  verify FILE [--receipt RECEIPT.json | --certificate CERTIFICATE.pdf] [--log-key FINGERPRINT|KEY.pem]\n              [--tsa-root FINGERPRINT|ROOT.pem]\n                        hash FILE and check it, offline: against its receipt or certificate (no\n                        queue needed; trusted log key: --log-key, or the one pinned here; trusted\n                        timestamping root: --tsa-root, or those of tokens kept here), or else\n                        against the certifications of it in this queue\n  verify PATH... [--against KIT|REGISTER.csv|LOAD.dat] [--report FILE.pdf|FILE.csv]\n              [--path-field NAME] [--hash-field NAME] [--log-key ...] [--tsa-root ...] [--trust-kit]\n                        a whole set (files and folders) against an evidence kit (folder or zip),\n                        the register (export --csv) or a load file; without --against, against\n                        this computer's certifications. Exit 0 only when everything in the\n                        reference was found and verified; nothing checked is a failure.\n                        A kit's own keys are trusted only with --trust-kit (or --log-key and\n                        --tsa-root), after comparing their fingerprints with the service's\n  export --out DIR [--zip FILE] [--state S] [--search TEXT] [--matter M] [--ids 1,2,3] [--receipts-only]\n              [--unsealed]\n                        write the evidence kit for the chosen certifications: a receipt and a\n                        certificate each, the register, verify.html, the log key and a README,\n                        sealed whole by the profile's timestamping authority (--unsealed: not)\n  export --csv FILE [--state S] [--search TEXT] [--matter M] [--ids 1,2,3]\n                        write the chain-of-custody register for Excel (UTF-8 CSV): who certified\n                        what, when, every state change, and every removal\n  config [receipts-beside-files on|off]\n                        show or change a preference: a receipt written beside each certified file\n                        once it is anchored (off unless chosen)\n  profile show | use ID | test [ID] | trust-key FINGERPRINT\n  profile set --id ID --kind KIND --base-url URL --token-url URL --client-id ID [--api-key KEY] [--sign]\n              [--log-key FINGERPRINT|KEY.pem] [--ca-file CA.pem]\n              [--tsa-url URL --tsa-ca ROOTS.pem [--tsa-policy OID] [--tsa-interval S]] [--use]\n                        secrets are asked for (no echo), or read one per line from a pipe;\n                        --tsa-url names the timestamping authority (RFC 3161) that confirms each\n                        batch's time, --tsa-ca the root certificate(s) it must chain to, --tsa-interval\n                        the least seconds between two requests it asks for. Public authorities\n                        (addresses only; get their roots from them): {{authorities}}\n  watch [add FOLDER --event-type TYPE --asset-type TYPE [--matter M] [--include GLOB] [--no-subfolders]\n             [--receipts-beside] [--settle S] [--poll S | --events] | list | remove|pause|resume FOLDER]\n                        certify what lands in a folder, each file once it has stopped changing\n                        (S seconds, default 3); alone, watch in the foreground until Ctrl-C;\n                        network shares are polled every 60 s (--poll S: always, every S s)\n  renew [--dry-run] [--documents FOLDER]\n                        renew the evidence records (RFC 4998) that are due, all with one timestamp,\n                        before their authority's certificate expires (the app does it daily);\n                        --dry-run lists what is due and why. Once IT retires SHA-256, records are\n                        renewed to SHA-512 from the documents themselves: looked for where they\n                        were certified, in watched folders and in each --documents FOLDER.\n                        Exit code 3 while a renewal is pending or cannot be done\n  sandbox [...]         run the local sandbox service (see: evidence-desk sandbox --help)\n\nOptions for every command:\n  --data-dir DIR        where the queue lives (default: the app's data folder; EVIDENCE_DESK_DATA_DIR)\n  --json                machine-readable output on stdout\n\nNetworks: HTTPS_PROXY / HTTP_PROXY / NO_PROXY are honoured; certificates are checked against the\nsystem's store, NODE_EXTRA_CA_CERTS and the profile's --ca-file.\n  -h, --help\n\nExit codes: 0 done; 1 something failed (a file, a certification, a verification);\n2 bad arguments; 3 the queue, keychain or service cannot be used; 4 timed out waiting.\n",
    runHelp: 'Run evidence-desk --help for usage.',
    stoppedUnfinished:
      'The command stopped before it finished, without a result: do not rely on it. This is a fault in Evidence Desk; please report it, with its log.',
    files_one: '{{count, number}} file',
    files_other: '{{count, number}} files',
    documents_one: '{{count, number}} document',
    documents_other: '{{count, number}} documents',
    certifications_one: '{{count, number}} certification',
    certifications_other: '{{count, number}} certifications',
    rootCertificates_one: '{{count, number}} root certificate',
    rootCertificates_other: '{{count, number}} root certificates',
    and: '{{first}} and {{second}}',
    or: 'or',
    demo: 'DEMO — made on a sandbox: real cryptography, but no legal weight.',
    demoShort: ' (DEMO — no legal weight)',
    environment: {
      embedded: 'Demo sandbox (built into Evidence Desk)',
      'service-sandbox': 'Service sandbox',
      production: 'Production service',
      custom: 'Custom service',
    },
    state: STATE_WORDS,
    row: {
      failed: 'failed: {{reason}}',
      noReason: 'no reason given',
      pending: 'pending',
      pendingService: 'pending (the service says "{{service}}")',
      lastLook: '{{state}}; {{reason}}',
      verified: 'anchored, evidence verified',
      invalid: 'anchored, but its evidence DID NOT VERIFY: {{reason}}',
      unverifiable: 'anchored, evidence not checkable here: {{reason}}',
      timeConfirmed: '; time confirmed {{when}} by {{authority}} (RFC 3161)',
      timeAsked: '; time asked of the timestamping authority, no answer yet',
      timeNotYet: '; time not confirmed yet, asked again later: {{reason}}',
    },
    watch: {
      added:
        'Watching {{path}} (folder {{id}}). The app and `evidence-desk watch` take it up within seconds.',
      removed: 'No longer watching {{path}}. Its certifications stay.',
      paused: 'Paused {{path}} (folder {{id}}).',
      resumed: 'Watching {{path}} again (folder {{id}}); what arrived meanwhile is caught up on.',
      none: 'No folders are watched. Add one with: evidence-desk watch add FOLDER --event-type TYPE --asset-type TYPE',
      line: '{{id}}  {{path}}  [{{status}}]  matter {{matter}}, {{eventType}} / {{assetType}}, files {{include}} {{subfolders}}',
      status: {
        starting: 'starting',
        catching_up: 'catching up',
        watching: 'watching {{how}}',
        paused: 'paused',
        unavailable: 'NOT WATCHING',
      },
      byEvents: 'by change events',
      polledEvery: 'by polling every {{seconds}} s',
      withSubfolders: 'with subfolders',
      withoutSubfolders: 'without subfolders',
      running_one: 'Watching {{count, number}} folder; Ctrl-C stops.',
      running_other: 'Watching {{count, number}} folders; Ctrl-C stops.',
      queued: 'queued {{files}} from {{path}}',
      stopping: 'Stopped watching. Files that were still settling are found at the next start.',
    },
    certify: {
      skipped: 'skipped {{path}}: {{reason}}',
      already:
        'already certified: {{path}} (as {{name}} on {{when}}, certification {{id}}); --again certifies it once more',
      queued: 'queued {{files}}',
      alreadyCount: '; {{files}} already certified',
      problemCount_one: '; {{files}} could not be certified',
      problemCount_other: '; {{files}} could not be certified',
    },
    sets: {
      verdict: {
        verified: 'verified',
        untrusted: 'certified, key not trusted',
        changed: 'changed',
        renamed: 'renamed',
        not_certified: 'not certified',
        missing: 'missing',
        unreadable: 'unreadable',
      },
      against: {
        kit: 'Checked against the evidence kit {{source}}',
        register: 'Checked against the register {{source}}',
        'load-file': 'Checked against the load file {{source}}',
        'this-computer': 'Checked against the certifications on this computer',
      },
      summary:
        '{{documents}}: {{verified}} verified{{untrusted}}, {{changed}} changed, {{renamed}} renamed, {{not_certified}} not certified, {{unreadable}} unreadable; {{missing}} of the reference missing.',
      passed: 'PASSED: everything in the reference was found and verified.',
      failed: 'NOT PASSED: see the lines above.',
      noDocuments: 'NOT PASSED: nothing was checked: no documents were found in the set.',
      emptyReference:
        'NOT PASSED: the reference holds no certification that could be used (see above), so no document could be found certified.',
      untrusted:
        'NOT PASSED YET: {{count}} certified, but signed by a key you have not trusted. Compare each fingerprint below with the one the service publishes (from the service itself, never from whoever sent the kit; your IT department can help):',
      untrustedCount: ', {{count}} certified under a key not trusted',
      untrustedNext: 'If they match, run the same command again with {{options}}.',
      trustedFromKit: 'Trusting this kit’s keys, as asked (--trust-kit):',
      logKey: '  log key                        {{fingerprint}}',
      tsaRoot: '  timestamping authority’s root  {{fingerprint}}',
      demo: 'DEMO: certifications of this reference were made on a sandbox. Their cryptography is real, but they carry no legal weight.',
      referenceProblem: 'In the reference, not used: {{where}}: {{why}}',
      seal: {
        sealed:
          'The kit is sealed: all {{files}} of its files are as they were on {{when}} (RFC 3161 timestamp by {{authority}}).',
        changed:
          'The kit was changed after it was sealed on {{when}} (RFC 3161 timestamp by {{authority}}): {{count}} of its files no longer match its seal. Do not rely on them.',
        changedFile: '  changed since sealing:  {{file}}',
        addedFile: '  added since sealing:    {{file}}',
        removedFile: '  removed since sealing:  {{file}}',
        untrusted:
          'The kit is sealed by an authority you have not trusted ({{authority}}): its seal was not relied on. Compare the fingerprint of its root (META-INF/timestamp-root.pem), {{fingerprint}}, with the one the authority publishes; if they match, trust the kit’s keys and check again.',
        broken:
          'The kit’s seal does not hold ({{why}}): its files may have been changed since it was made. Rely on nothing in it but its receipts, which each prove themselves.',
        unsealed: 'The kit is not sealed as a whole: only its receipts were checked, each on its own.',
        standing: 'The sealing authority’s standing then: {{standing}}.',
      },
      signed: 'certification {{id}}, signed {{when}}',
      notSigned:
        'matched by content; no signed time (the reference is not signed, and this computer holds no certification of it)',
      progress: 'read {{done}} of {{files}} ({{percent}})',
      listing: 'listing the set: {{files}} so far',
      reportWritten: 'Wrote the report to {{file}}.',
    },
    hashing: {
      file: 'hashing {{name}}: {{percent}} ({{done}} of {{total}} MiB)',
      batch: 'hashed {{done}} of {{files}} ({{percent}})',
    },
    wait: {
      line: 'waiting for anchoring: {{counts}}',
      retry: ' — {{reason}}; trying again at {{when}}',
      unreachable: 'the service cannot be reached',
    },
    status: {
      profile: 'profile: {{id}} — {{label}}{{demo}}',
      matter: '  matter {{matter}}: {{counts}}',
      connection: 'connection: {{words}}',
      notChecked: 'not checked (status does not contact the service; evidence-desk profile test does)',
      nextTry: '; next try at {{when}}',
      lastCertified: 'last certified: {{when}}',
      lastAnchored: '; last anchored: {{when}}',
      keyChanged:
        "WARNING: the service's log key changed (now {{fingerprint}}); evidence is not checked until you accept it: evidence-desk profile trust-key FINGERPRINT",
      connectivity: {
        unknown: 'unknown',
        online: 'online',
        offline: 'offline',
        auth_failed: 'auth_failed',
        standby: 'standby',
        needs_setup: 'needs_setup',
        paused: 'paused',
      },
    },
    verify: {
      none: 'No certification of this exact file is in the queue.',
      sameName:
        '  A file named {{name}} was certified on {{when}}, but its content has changed since: this is not the certified version.',
      check: '  {{state}}: {{words}}',
      signed: 'Signed:',
    },
    export: {
      progress: 'wrote {{done}} of {{total}} certificates',
      sealing: 'sealing the kit: one RFC 3161 timestamp over the list of its files',
      sealingWaits: 'sealing the kit: waiting for the timestamping authority’s pace, until {{until}}',
      saved: 'Saved the evidence of {{certifications}} to {{where}}.',
      nothing: 'Nothing matched: the kit holds only verify.html and its README.',
      register:
        'Wrote the register of {{certifications}} to {{file}}, and each of their events, one per row, to {{events}}.',
    },
    renew: {
      noRecords: 'No evidence records here yet: they begin with the first batch timestamped by this version.',
      nothingDue: 'Every evidence record holds; the next renewal is due on {{when}}.',
      due_one: '{{count}} evidence record (documents: {{documents}}) needs renewal:',
      due_other: '{{count}} evidence records (documents: {{documents}}) need renewal:',
      dueRecord_one:
        '  {{count}} document timestamped on {{made}} by {{authority}}: the authority’s certificate expires on {{until}}',
      dueRecord_other:
        '  {{count}} documents timestamped on {{made}} by {{authority}}: the authority’s certificate expires on {{until}}',
      dueRecordRetired_one:
        '  {{count}} document timestamped on {{made}} by {{authority}}: it rests on {{weakness}}, which is retired',
      dueRecordRetired_other:
        '  {{count}} documents timestamped on {{made}} by {{authority}}: it rests on {{weakness}}, which is retired',
      dueRecordRetiredAgain_one:
        '  {{count}} document last renewed on {{made}} by {{authority}}: that renewal rests on {{weakness}} too, which is retired; renewing it needs an authority that signs with something stronger',
      dueRecordRetiredAgain_other:
        '  {{count}} documents last renewed on {{made}} by {{authority}}: that renewal rests on {{weakness}} too, which is retired; renewing it needs an authority that signs with something stronger',
      needsStrongerAuthority_one:
        '{{count}} evidence record cannot be renewed by this profile’s timestamping authority: its renewals rest on what is retired. Choose an authority that signs with a stronger key or hash (evidence-desk profile set … --tsa-url URL --tsa-ca ROOTS.pem), then run renew again.',
      needsStrongerAuthority_other:
        '{{count}} evidence records cannot be renewed by this profile’s timestamping authority: their renewals rest on what is retired. Choose an authority that signs with a stronger key or hash (evidence-desk profile set … --tsa-url URL --tsa-ca ROOTS.pem), then run renew again.',
      weakKey: 'an {{key}} key of {{bits}} bits',
      renewed_one:
        'Renewed {{count}} evidence record (documents: {{documents}}) with one timestamp by {{authority}} on {{when}}.',
      renewed_other:
        'Renewed {{count}} evidence records (documents: {{documents}}) with one timestamp by {{authority}} on {{when}}.',
      waits_one:
        'The renewal of {{count}} evidence record waits for the timestamping authority: {{why}} The app, sync or watch asks again as soon as the authority allows.',
      waits_other:
        'The renewal of {{count}} evidence records waits for the timestamping authority: {{why}} The app, sync or watch asks again as soon as the authority allows.',
      notAskedYet: 'It has not been asked yet.',
      hashTreeDue_one:
        '{{count}} document’s evidence record rests on SHA-256, which IT has retired: it is renewed to SHA-512 from the document itself (renew looks for it where it was certified, in watched folders and in each --documents FOLDER).',
      hashTreeDue_other:
        '{{count}} documents’ evidence records rest on SHA-256, which IT has retired: they are renewed to SHA-512 from the documents themselves (renew looks for them where they were certified, in watched folders and in each --documents FOLDER).',
      receiptRecords_one:
        '{{count}} certification was timestamped before evidence records: its receipt, timestamp and validation data inside, gets a record of its own (one timestamp for all):',
      receiptRecords_other:
        '{{count}} certifications were timestamped before evidence records: their receipts, timestamp and validation data inside, get records of their own (one timestamp for all):',
      hashTreeRenewing_one: 'Found {{count}} document again, to renew its evidence record to SHA-512:',
      hashTreeRenewing_other: 'Found {{count}} documents again, to renew their evidence records to SHA-512:',
      missing_one:
        '{{count}} document was not found, so its evidence record is not renewed to SHA-512 (it stays as it is). Run renew again with --documents FOLDER naming the folder that holds it:',
      missing_other:
        '{{count}} documents were not found, so their evidence records are not renewed to SHA-512 (they stay as they are). Run renew again with --documents FOLDER naming the folder that holds them:',
      missingInMatter: '  Matter {{matter}}: {{names}}',
      missingNoMatter: '  No matter: {{names}}',
      andMore: '{{names}} and {{count}} more',
      noAuthority_one:
        '{{count}} evidence record cannot be renewed: the profile names no timestamping authority. Choose one: evidence-desk profile set … --tsa-url URL --tsa-ca ROOTS.pem',
      noAuthority_other:
        '{{count}} evidence records cannot be renewed: the profile names no timestamping authority. Choose one: evidence-desk profile set … --tsa-url URL --tsa-ca ROOTS.pem',
    },
    config: {
      on: 'receipts-beside-files on: a receipt is written beside each certified file once it is anchored',
      off: 'receipts-beside-files off: receipts are saved only when asked for (export)',
    },
    profile: {
      active: 'Active profile: {{id}} — {{label}}{{demo}}',
      embedded:
        'It runs inside Evidence Desk: nothing to set up. Its DEMO timestamping authority confirms each batch’s time. Choose a service with: evidence-desk profile set …',
      secretSet: 'set (in the system keychain)',
      secretNotSet: 'NOT SET',
      service: '  service:        {{value}}',
      tokenAddress: '  token address:  {{value}}',
      clientId: '  client id:      {{value}}',
      clientSecret: '  client secret:  {{value}}',
      apiKey: '  API key:        {{value}}; its secret {{secret}}',
      signsYes: '  signs requests: yes; signing key {{secret}}',
      signsNo: '  signs requests: no',
      logKey: '  log key:        {{value}}',
      pemKey: 'a PEM key',
      caFile: '  CA file:        {{value}}',
      timestamps: '  timestamps:     {{url}} (RFC 3161), trusted by {{roots}}{{policy}}',
      policy: ', policy {{oid}}',
      interval: ', at most one request every {{seconds}} s',
      noTimestamps:
        '  timestamps:     none: the time rests on the service alone (profile set … --tsa-url URL --tsa-ca ROOTS.pem)',
      nowUsing: 'Now using the profile {{id}} — {{label}}.',
      connected: 'Connected: a token was issued (valid {{seconds}} s).',
      notConnected: 'Not connected: {{reason}}',
      saved: 'Saved profile {{id}}; its secrets are in the system keychain.',
      activeIs: 'The active profile is {{id}}.',
      activeIsNot:
        'The active profile is {{id}} (to use {{saved}}: evidence-desk profile use {{saved}}, or profile set … --use).',
      keyUnchanged: 'The log key has not changed: there is nothing to accept.',
      keyChanged:
        "The service's log key changed from {{before}} to {{after}}. Compare the new fingerprint with the one the service publishes; if they match, run: evidence-desk profile trust-key {{after}}",
      nowTrusting: 'Now trusting the log key {{fingerprint}}; checked {{certifications}} again.',
    },
    usageErrors: {
      watch:
        'watch takes: nothing (watch in the foreground), list, add FOLDER, remove FOLDER, pause FOLDER or resume FOLDER.',
      watchSeconds: '--poll and --settle take a number of seconds.',
      watchNeedsTypes: 'watch add needs --event-type and --asset-type.',
      watchMethod: 'Choose --poll or --events, not both.',
      unknownCommand: 'Unknown command "{{command}}".',
      unknownOption: 'There is no option {{option}}.',
      certifyNeedsPaths: 'certify needs at least one file or folder.',
      certifyNeedsTypes: 'certify needs --event-type and --asset-type.',
      verifyOneFile: 'verify needs files or folders; with --receipt or --certificate, exactly one file.',
      exportNeedsTarget: 'export needs --out DIR, --zip FILE or --csv FILE.',
      receiptOrCertificate: 'verify takes --receipt or --certificate, not both.',
      ids: '--ids takes whole numbers separated by commas.',
      timeout: '--timeout takes a number of seconds above 0.',
      state: '--state takes one of {{states}}.',
      limit: '--limit takes a whole number above 0.',
      config: 'config takes: receipts-beside-files on|off',
      profileUse: 'profile use needs a profile id (or "embedded").',
      profileActions: 'profile takes show, use ID, test [ID], set or trust-key FINGERPRINT.',
      tsaWithoutUrl: '--tsa-ca, --tsa-policy and --tsa-interval go with --tsa-url.',
      tsaNeedsRoots:
        '--tsa-url needs --tsa-ca: the root certificate(s) the authority publishes, as a PEM file, so its tokens can be trusted.',
      unreadableFile: '{{flag}} {{path}}: that file cannot be read.',
      noCertificate: '--ca-file {{path}}: that file holds no PEM certificate (-----BEGIN CERTIFICATE-----).',
      logKey: "--log-key takes a key's SHA-256 fingerprint or a PEM public key file; {{value}} is neither.",
      tsaRoot:
        "--tsa-root takes a root certificate's SHA-256 fingerprint or a PEM certificate file; {{value}} is neither.",
    },
  },
  shell: {
    menu: {
      file: 'File',
      addFiles: 'Add Files…',
      addFolder: 'Add Folder…',
      verifyFile: 'Verify a File…',
      settings: 'Settings…',
      checkForUpdates: 'Check for Updates…',
      updatesManaged: 'Updates Are Managed by Your IT Department',
      edit: 'Edit',
      view: 'View',
      window: 'Window',
      help: 'Help',
      userGuide: 'Evidence Desk Help',
      othersCheck: 'How Others Check Evidence',
      keyboard: 'Keyboard Shortcuts',
      // The help page in this language, in resources/help/.
      helpPage: 'en.html',
    },
    tray: {
      watching_one: 'Watching {{count}} folder',
      watching_other: 'Watching {{count}} folders',
      notWatching_one: '{{count}} watched folder is not being watched',
      notWatching_other: '{{count}} watched folders are not being watched',
      tooltipIdle: 'Evidence Desk',
      tooltipWaiting_one: 'Evidence Desk — {{count}} certification waiting',
      tooltipWaiting_other: 'Evidence Desk — {{count}} certifications waiting',
      tooltipPaused: 'Evidence Desk — sending paused',
      open: 'Open Evidence Desk',
      syncNow: 'Sync now',
      pause: 'Pause sending',
      resume: 'Resume sending',
      quit: 'Quit Evidence Desk',
    },
    title: {
      waiting_one: 'Evidence Desk — {{count}} waiting',
      waiting_other: 'Evidence Desk — {{count}} waiting',
    },
    quit: {
      question_one: '{{count}} certification has not been anchored yet.',
      question_other: '{{count}} certifications have not been anchored yet.',
      detail:
        'If you quit, they wait safely on this computer and are sent the next time Evidence Desk runs. To finish them now, keep Evidence Desk running: it works from the tray.',
      quitAnyway: 'Quit anyway',
      keepRunning: 'Keep running',
    },
    stillRunning: {
      title: 'Evidence Desk is still working',
      body: 'It keeps sending in the background. Open it again from the tray.',
    },
    notify: {
      failedTitle: 'A certification failed',
      failedBody: '{{name}}: {{reason}}',
      failedNoReason: 'see Evidence Desk for the reason',
      updateReadyTitle: 'An update is ready',
      updateReadyBody:
        'Evidence Desk {{version}} installs when you quit, after anything being sent is safely stored.',
      anchoredTitle: 'Certifications anchored',
      anchored_one: '{{count}} certification is anchored and verifiable.',
      anchored_other: '{{count}} certifications are anchored and verifiable.',
    },
    dialogs: {
      watchFolder: 'Choose a folder to watch',
      watchHere: 'Watch this folder',
      documentsFolder: 'Choose the folder that holds the documents',
      lookHere: 'Look in this folder',
      saveKit: 'Save the evidence kit in…',
      saveHere: 'Save here',
      exportRegister: 'Export the register',
      export: 'Export',
      csvFilter: 'Register for Excel (CSV)',
      saveReport: 'Save the verification report',
      pdfFilter: 'Report (PDF)',
      csvReportFilter: 'Report for Excel (CSV)',
      saveCertificate: 'Save the certificate',
      save: 'Save',
      certificateFilter: 'Certificate (PDF)',
      cannotStart: 'Evidence Desk cannot start',
    },
  },
};

/** The shape every language must fill: the same keys, each a string. */
export type Catalogue = { [K in keyof typeof en]: Strings<(typeof en)[K]> };
type Strings<T> = { [K in keyof T]: T[K] extends string ? string : Strings<T[K]> };
