import type { Catalogue } from './en';
import { LIMITS, byteSize as size } from '../limits';

const number = (n: number) => n.toLocaleString('de');

/** A certification's state, one word each, in sentences and on the command line (docs/glossary.md). */
const STATE_WORDS = {
  queued: 'eingereiht',
  submitting: 'wird gesendet',
  pending: 'in Bearbeitung',
  anchored: 'verankert',
  failed: 'fehlgeschlagen',
};

/** German: every key of the English catalogue, checked by TypeScript. */
export const de: Catalogue = {
  app: {
    header: {
      verify: 'Prüfen…',
      settings: 'Einstellungen',
    },
    environment: {
      embedded: 'Demo-Sandbox',
      'service-sandbox': 'Sandbox des Dienstes',
      production: 'Produktivumgebung',
      custom: 'Eigener Dienst',
      named: '{{environment}}: {{name}}',
      noLegalWeight: ' — kein Beweiswert',
      long: {
        embedded: 'In Evidence Desk eingebaute Demo-Sandbox',
        'service-sandbox': 'Sandbox des Dienstes',
        production: 'Produktivdienst',
        custom: 'Eigener Dienst',
      },
    },
    connection: {
      online: 'Verbunden',
      offline: 'Offline',
      auth_failed: 'Zugangsdaten abgelehnt',
      needs_setup: 'Einrichtung nötig',
      standby: 'In Bereitschaft',
      standbyForCommandLine: 'Von der Kommandozeile gesendet',
      paused: 'Senden pausiert',
      unknown: 'Verbinde…',
      ready: 'Bereit',
    },
    banner: {
      demo: 'Demo-Umgebung: Zertifizierungen hier sind echte kryptografische Nachweise, haben aber <strong>keinen Beweiswert</strong>. Wählen Sie für den Produktivbetrieb in den Einstellungen einen Dienst.',
      offline: 'Der Zertifizierungsdienst ist nicht erreichbar.',
      standbyApp: 'Ein anderes Evidence-Desk-Fenster auf diesem Computer sendet diese Warteschlange.',
      standbyCommandLine:
        'Diese Warteschlange wird gerade von der Kommandozeile (evidence-desk) gesendet. Dieses Fenster übernimmt, sobald sie fertig ist.',
      paused: 'Das Senden ist pausiert.',
      waiting_one: '{{count}} Zertifizierung wartet',
      waiting_other: '{{count}} Zertifizierungen warten',
      willSendWhenFixed: 'und wird gesendet, sobald das behoben ist. Nichts geht verloren.',
      willSendAutomatically: 'und wird automatisch gesendet. Nichts geht verloren.',
      willSendWhenResumed: 'und wird gesendet, sobald Sie fortsetzen. Nichts geht verloren.',
      openSettings: 'Einstellungen öffnen',
      tryNow: 'Jetzt versuchen',
      resume: 'Senden fortsetzen',
      keyChanged:
        '<strong>Der Dienst signiert jetzt mit einem anderen Schlüssel.</strong> Solange dem neuen Schlüssel nicht vertraut wird, können neue Zertifizierungen nicht als geprüft angezeigt werden. Ein neuer Schlüssel ist oft Routine, kann aber auch bedeuten, dass sich jemand als der Dienst ausgibt: Bitten Sie Ihre IT-Abteilung, seinen Fingerabdruck mit dem vom Dienst veröffentlichten zu vergleichen, bevor ihm jemand vertraut.',
      keyChangedLocked:
        '<strong>Der Dienst signiert jetzt mit einem anderen Schlüssel.</strong> Ihre IT-Abteilung entscheidet, welchen Schlüsseln dieser Computer vertraut: Neue Zertifizierungen werden als geprüft angezeigt, sobald sie diesen Schlüssel geprüft und ihm vertraut hat. Bis dahin geht nichts verloren.',
      newFingerprint: 'Fingerabdruck des neuen Schlüssels:',
      trustKey: 'Dem neuen Schlüssel vertrauen…',
      trustKeyConfirm:
        'Vertrauen Sie ihm nur, wenn jede Gruppe oben mit dem Fingerabdruck übereinstimmt, den der Dienst veröffentlicht, wie Ihre IT-Abteilung bestätigt hat. Jede noch nicht geprüfte Zertifizierung wird dann damit geprüft.',
      trustKeyConfirmed: 'Er stimmt überein: dem neuen Schlüssel vertrauen',
      cancel: 'Abbrechen',
    },
    progress: {
      fingerprinting_one: 'Fingerabdruck {{done}} von {{count}} Datei',
      fingerprinting_other: 'Fingerabdrücke: {{done}} von {{count}} Dateien',
      savingKit_one: 'Nachweise werden gespeichert: Zertifikat {{done, number}} von {{count, number}}',
      savingKit_other: 'Nachweise werden gespeichert: Zertifikat {{done, number}} von {{count, number}}',
      savingKitPapers_one:
        'Nachweise werden gespeichert: Das Zertifikat ist erstellt; das Register wird geschrieben',
      savingKitPapers_other:
        'Nachweise werden gespeichert: Alle {{count, number}} Zertifikate sind erstellt; das Register wird geschrieben',
      sealingKit: 'Nachweise werden gespeichert: Sie werden mit einem Zeitstempel versiegelt',
      sealingKitWaiting:
        'Nachweise werden gespeichert: Sie werden mit einem Zeitstempel versiegelt, sobald der Zeitstempeldienst es zulässt, um {{time}}',
      minutesLeft_one: 'noch etwa {{count, number}} Minute',
      minutesLeft_other: 'noch etwa {{count, number}} Minuten',
      underAMinuteLeft: 'noch weniger als eine Minute',
      hoursLeft_one: 'noch etwa {{count, number}} Stunde',
      hoursLeft_other: 'noch etwa {{count, number}} Stunden',
      hoursAndMinutesLeft: 'noch etwa {{hours}} {{minutes}}',
      hours_one: '{{count, number}} Stunde',
      hours_other: '{{count, number}} Stunden',
      minutes_one: '{{count, number}} Minute',
      minutes_other: '{{count, number}} Minuten',
      cancelKit: 'Abbrechen',
    },
    intake: {
      region: 'Dokumente hinzufügen',
      explain:
        'Ziehen Sie Dokumente oder Ordner irgendwo in dieses Fenster. Nur ihre Fingerabdrücke verlassen diesen Computer.',
      addFiles: 'Dateien hinzufügen…',
      addFolder: 'Ordner hinzufügen…',
    },
    notice: {
      queued_one: '{{count}} Datei zur Zertifizierung eingereiht.',
      queued_other: '{{count}} Dateien zur Zertifizierung eingereiht.',
      problems_one: '{{count}} konnte nicht zertifiziert werden:',
      problems_other: '{{count}} konnten nicht zertifiziert werden:',
      alreadyCertified_one:
        '{{count}} Datei ist bereits zertifiziert und wurde deshalb nicht erneut gesendet:',
      alreadyCertified_other:
        '{{count}} Dateien sind bereits zertifiziert und wurden deshalb nicht erneut gesendet:',
      alreadyCertifiedAs: 'bereits zertifiziert am {{when}} als „{{name}}“',
      alreadyQueuedAs: 'wartet bereits seit {{when}} auf Zertifizierung als „{{name}}“',
      certifyAgain_one: 'Erneut zertifizieren',
      certifyAgain_other: 'Alle erneut zertifizieren',
      dismiss: 'Ausblenden',
      writingRegister: 'Register wird geschrieben…',
      wroteRegister_one:
        'Register mit {{count, number}} Zertifizierung in {{file}} geschrieben: wer was wann zertifiziert hat und jede Entfernung. Daneben enthält {{events}} jedes Ereignis in einer eigenen Zeile. Beide lassen sich in Excel öffnen.',
      wroteRegister_other:
        'Register mit {{count, number}} Zertifizierungen in {{file}} geschrieben: wer was wann zertifiziert hat und jede Entfernung. Daneben enthält {{events}} jedes Ereignis in einer eigenen Zeile. Beide lassen sich in Excel öffnen.',
      savingEvidence: 'Nachweise werden gespeichert…',
      savedEvidence_one:
        'Nachweise von {{count}} Zertifizierung in {{dir}} gespeichert: ein Zertifikat und ein Beleg, das Register und verify.html für die Empfänger.',
      savedEvidence_other:
        'Nachweise von {{count}} Zertifizierungen in {{dir}} gespeichert: je ein Zertifikat und ein Beleg, das Register und verify.html für die Empfänger.',
      savingCertificate: 'Zertifikat wird gespeichert…',
      savedCertificate:
        'Zertifikat von {{name}} als {{file}} gespeichert. Der Beleg ist darin enthalten: Das PDF allein genügt zur Prüfung.',
      openFolder: 'Ordner öffnen',
      saveUnsealed: 'Unversiegelt speichern',
      removed_one: '{{count, number}} nie verankerte Zertifizierung entfernt.',
      removed_other: '{{count, number}} nie verankerte Zertifizierungen entfernt.',
      kept_one:
        '{{count, number}} bleibt erhalten, da sie verankert oder zum Dienst unterwegs ist; ihr Nachweis bleibt bestehen.',
      kept_other:
        '{{count, number}} bleiben erhalten, da sie verankert oder zum Dienst unterwegs sind; ihre Nachweise bleiben bestehen.',
      sendingAgain_one: '{{count}} Zertifizierung wird erneut gesendet.',
      sendingAgain_other: '{{count}} Zertifizierungen werden erneut gesendet.',
    },
    filters: {
      show: 'Anzeigen',
      all: 'Alle',
      waiting: 'Wartend',
      anchored: 'Verankert',
      failed: 'Fehlgeschlagen',
      withCount: '{{label}} ({{count, number}})',
      search: 'Suche',
      searchPlaceholder: 'Dateiname oder Hashwert',
      matter: 'Akte',
      allMatters: 'Alle Akten',
      saveEvidence: 'Nachweise speichern…',
      exportRegister: 'Register exportieren…',
    },
    selection: {
      region: 'Ausgewählte Zertifizierungen',
      chosen_one: '{{count}} ausgewählt',
      chosen_other: '{{count}} ausgewählt',
      saveEvidence: 'Nachweise der Auswahl speichern…',
      exportRegister: 'Register der Auswahl exportieren…',
      sendAgain_one: '{{count}} fehlgeschlagene erneut senden',
      sendAgain_other: '{{count}} fehlgeschlagene erneut senden',
      clear: 'Auswahl aufheben',
      allShown: 'Alle angezeigten Zertifizierungen sind ausgewählt',
      remove: 'Entfernen…',
      removeQuestion: 'Ausgewählte Zertifizierungen entfernen?',
      removeExplain:
        'Entfernt werden nur die nie verankerten: nie gesendete oder endgültig fehlgeschlagene. Verankerte und solche, die gerade zum Dienst unterwegs sind, bleiben mit ihren Nachweisen erhalten. Das Register hält jede Entfernung fest und wer sie vorgenommen hat.',
      keep: 'Behalten',
      confirmRemove: 'Entfernen',
    },
    rowMenu: {
      label: 'Was mit {{name}} geschehen soll',
      details: 'Details öffnen',
      showInFolder: 'Im Ordner zeigen',
      saveCertificate: 'Zertifikat speichern (PDF)…',
      verify: 'Diese Datei prüfen…',
      remove: 'Entfernen…',
    },
    list: {
      label: 'Zertifizierungen',
      chooseAll: 'Alle angezeigten Zertifizierungen auswählen',
      choose: '{{name}} auswählen',
      columns: { file: 'Datei', matter: 'Akte', event: 'Ereignis', state: 'Status', added: 'Hinzugefügt' },
      notLoaded:
        'Diese Zertifizierungen konnten nicht angezeigt werden: {{reason}} Es geht nichts verloren: Sie sind weiterhin auf diesem Computer. Versuchen Sie es erneut; geschieht es wieder, starten Sie Evidence Desk neu und informieren Sie Ihre IT-Abteilung.',
      tryAgain: 'Erneut versuchen',
      noMatch: 'Keine Zertifizierung passt.',
      empty:
        'Noch nichts hier. Ziehen Sie Dokumente irgendwo in dieses Fenster oder verwenden Sie „Dateien hinzufügen“.',
      loading: 'Wird geladen…',
      notLoadedRow: 'Nicht geladen',
      noMatter: '—',
      time: {
        confirmed: 'Zeit bestätigt',
        confirmedBy: 'Zeit bestätigt durch {{authority}} (RFC-3161-Zeitstempel).',
        waiting: 'Zeit ausstehend',
        notAsked: 'ohne unabhängige Zeit',
      },
    },
    state: {
      waiting: 'Wartet',
      waitingOffline: 'Wartet (offline)',
      sending: 'Wird gesendet',
      pending: 'In Bearbeitung',
      pendingService: 'In Bearbeitung · der Dienst meldet „{{state}}“',
      lastCheckFailed: '{{state}} · letzte Abfrage fehlgeschlagen',
      verified: 'Verankert ✓ geprüft',
      invalid: 'Verankert — Nachweis ungültig',
      unverifiable: 'Verankert — hier nicht prüfbar',
      failed: 'Fehlgeschlagen',
      unknownReason: 'Grund unbekannt',
    },
    meaning: {
      queued: 'Ihr Fingerabdruck wartet auf diesem Computer und wird an den Zertifizierungsdienst gesendet.',
      submitting: 'Ihr Fingerabdruck wird gerade an den Zertifizierungsdienst gesendet.',
      pending:
        'Der Dienst hat den Fingerabdruck erhalten und trägt ihn in sein öffentliches Protokoll ein; das dauert meist einige Minuten.',
      verified:
        'Ihr Fingerabdruck steht im öffentlichen Protokoll des Dienstes, und dieser Computer hat den Nachweis geprüft: Jeder kann bestätigen, dass genau dieser Inhalt zum angegebenen Zeitpunkt existierte, ohne Evidence Desk vertrauen zu müssen.',
      invalid:
        'Der Dienst meldet die Eintragung, aber der übermittelte Nachweis hält der Prüfung nicht stand. Verlassen Sie sich nicht auf diese Zertifizierung; zertifizieren Sie die Datei erneut.',
      unverifiable:
        'Der Dienst meldet den Eintrag, aber sein Nachweis liegt in einer Form vor, die dieser Computer nicht prüfen kann. Bewahren Sie den Beleg auf: Er lässt sich dort prüfen, wo diese Form bekannt ist.',
      failed:
        'Diese Zertifizierung ist nicht gelungen und beweist nichts. Der Grund steht unten; Sie können sie erneut senden.',
    },
    batch: {
      title_one: '{{count}} Element zertifizieren',
      title_other: '{{count}} Elemente zertifizieren',
      explain:
        'Gesendet wird nur ein Fingerabdruck (SHA-256-Hashwert) jeder Datei. Die Dateien verlassen diesen Computer nie.',
      matter: 'Akte (Aktenzeichen oder Mandatsnummer, optional)',
      assetType: 'Art des Dokuments',
      sourceSystem: 'Quellsystem',
      event: 'Was ist mit den Dokumenten geschehen?',
      otherEvent: 'Anderes Ereignis…',
      chooseEvent: 'Bitte auswählen, was geschehen ist…',
      otherEventLabel: 'Ereigniscode des Dienstes',
      otherKind: 'Eine andere Art…',
      otherKindLabel: 'Art des Dokuments, in Ihren Worten',
      files: 'Die Dateien',
      moreFiles_one: 'und {{number}} weitere Datei',
      moreFiles_other: 'und {{number}} weitere Dateien',
      who: 'Wer zertifiziert',
      whoHint:
        'Wird nur einmal abgefragt: Ihr Name und Ihre Kanzlei erscheinen auf jedem Zertifikat, das Sie hier erstellen. Sie können beides in den Einstellungen ändern.',
      yourName: 'Ihr Name',
      yourFirm: 'Ihre Kanzlei',
      eventHint: 'Der Code des Dienstes dafür: Großbuchstaben und Unterstriche, etwa CONTRACT_EXECUTED.',
      eventInvalid:
        'Verwenden Sie Großbuchstaben, Ziffern und einzelne Unterstriche, etwa CONTRACT_EXECUTED.',
      cancel: 'Abbrechen',
      certify: 'Zertifizieren',
    },
    details: {
      title: 'Zertifizierung',
      loading: 'Wird geladen…',
      demo: 'DEMO — in einer Sandbox erstellt: echte Kryptografie, aber kein Beweiswert.',
      what: 'Was zertifiziert wurde',
      file: 'Datei',
      size: 'Größe',
      bytes: '{{size}} ({{bytes}} Byte)',
      sha256: 'SHA-256',
      location: 'Speicherort',
      showInFolder: 'Im Ordner zeigen',
      copy: 'Kopieren',
      copied: 'Kopiert',
      copyFailed: 'Kopieren nicht möglich',
      which: 'Erfasst als',
      event: 'Ereignis',
      assetType: 'Art des Dokuments',
      sourceSystem: 'Quellsystem',
      codes: 'Ereignis und Art, wie der Dienst sie erfasst',
      watchedFolder: 'Überwachter Ordner',
      changedAfter: 'Geändert nach Zertifizierung',
      earlierCertification: 'Die Datei wurde nach Zertifizierung {{id}} geändert: öffnen',
      matter: 'Akte',
      noMatter: 'Keine angegeben',
      when: 'Wann',
      certifiedAt: 'Zertifiziert',
      anchoredAt: 'Verankert',
      notAnchored: 'Noch nicht',
      timeConfirmed: 'Zeit bestätigt',
      timeConfirmedBy: 'durch {{authority}} (RFC-3161-Zeitstempel)',
      timeAsked: 'Angefragt; der Zeitstempeldienst hat noch nicht geantwortet.',
      timeNotYet: 'Noch nicht, wird später erneut angefragt: {{reason}}',
      noTimestamp:
        'Für dieses Profil ist kein Zeitstempeldienst eingerichtet: Die Zeit beruht allein auf dem Dienst.',
      utcTitle: 'UTC: {{iso}}',
      where: 'Wer und wo',
      certifiedBy: 'Zertifiziert von',
      byOn: '{{user}} auf {{computer}}',
      unknownPerson: 'Nicht erfasst (zertifiziert, bevor Evidence Desk dies festhielt)',
      environment: 'Umgebung',
      service: 'Dienst',
      embeddedService: 'In Evidence Desk eingebaut, auf diesem Computer',
      unknownService: 'Nicht erfasst',
      timeline: 'Verlauf',
      technical: 'Technische Angaben',
      certificationId: 'Zertifizierungs-ID (Dienst)',
      requestId: 'Anfrage-ID',
      serviceState: 'Status beim Dienst',
      logPosition: 'Position im Protokoll',
      entryOf: 'Eintrag {{entry}} von {{of}}',
      lastCheck: 'Letzte Abfrage',
      evidenceCheck: 'Nachweis',
      notAnchoredYet: 'Noch nicht verankert.',
      evidence: 'Der Nachweis, wie empfangen',
      rawAnswer: 'Die letzte Antwort des Dienstes, wie empfangen',
      none: '—',
      sendAgain: 'Erneut senden',
      saveEvidence: 'Nachweise speichern…',
      saveCertificate: 'Zertifikat speichern (PDF)…',
      dragOut: 'Oder herausziehen:',
      dragCertificate: 'Zertifikat (PDF)',
      dragReceipt: 'Beleg (JSON)',
      dragTitle: 'Auf den Schreibtisch, in einen Ordner oder eine E-Mail ziehen',
      remove: 'Entfernen…',
      removeQuestion: 'Diese Zertifizierung entfernen?',
      removeNeverSent:
        '<strong>{{name}}</strong> aus der Liste entfernen? Sie wurde nie gesendet. Das Register hält fest, dass Sie sie entfernt haben.',
      removeNeverAnchored:
        '<strong>{{name}}</strong> aus der Liste entfernen? Sie wurde nie verankert. Das Register hält fest, dass Sie sie entfernt haben.',
      keep: 'Behalten',
      confirmRemove: 'Entfernen',
      close: 'Schließen',
      states: {
        queued: 'eingereiht',
        submitting: 'wird gesendet',
        pending: 'in Bearbeitung',
        anchored: 'verankert',
        failed: 'fehlgeschlagen',
      },
    },
    verify: {
      title: 'Ein Dokument prüfen',
      explain:
        'Ziehen Sie ein Dokument hierher, dazu seinen Beleg oder sein Zertifikat, falls vorhanden, oder wählen Sie sie aus. Nichts verlässt diesen Computer.',
      chooseDocument: 'Dokument wählen…',
      noDocument: 'Noch kein Dokument',
      chooseProof: 'Beleg oder Zertifikat wählen…',
      optional: 'Optional',
      checking: '{{name}} wird geprüft…',
      waiting: 'Warte auf ein Dokument.',
      couldNotVerify: 'Prüfung nicht möglich',
      verifiedHere: 'Geprüft: Dieses Dokument ist hier zertifiziert',
      certifiedAs: 'Zertifiziert als „{{name}}“ am {{when}}. {{message}}',
      certifiedNotVerified: 'Hier zertifiziert, aber nicht erfolgreich geprüft',
      notCertifiedVersion: 'Nicht die zertifizierte Fassung',
      changedSince:
        'Eine Datei namens „{{name}}“ wurde am {{when}} zertifiziert, ihr Inhalt hat sich seitdem aber geändert.',
      noCertification: 'Keine Zertifizierung dieses Dokuments auf diesem Computer',
      giveProof: 'Um es dennoch zu prüfen, geben Sie auch seinen Beleg oder sein Zertifikat an.',
      verdicts: {
        verifiedSealBroken:
          'Anhand des Belegs im Zertifikat-PDF geprüft, aber das PDF wurde nach dem Versiegeln verändert',
        verified: 'Geprüft: Dies ist das zertifizierte Dokument',
        content_differs: 'Nicht das zertifizierte Dokument',
        receipt_invalid: 'Der Nachweis ist in sich nicht stimmig',
        untrusted_key: 'In sich stimmig, aber mit einem Protokollschlüssel signiert, dem Sie nicht vertrauen',
        not_anchored: 'Noch nicht prüfbar: Die Zertifizierung wurde nicht verankert',
        timestamp_invalid: 'Der Zeitstempel hält der Prüfung nicht stand',
        untrusted_tsa:
          'In sich stimmig, aber der Zeitstempel stammt von einem Zeitstempeldienst, dem Sie nicht vertrauen',
      },
      why: {
        verifiedLog:
          'Dies ist genau der zertifizierte Inhalt für das Ereignis „{{event}}“, zertifiziert am {{certifiedAt}}, verankert am {{anchoredAt}} (Eintrag {{entry}} von {{size}} im Protokoll, signiert mit dem vertrauenswürdigen Protokollschlüssel {{key}}…).',
        verifiedLogV1:
          'Dies ist genau der zertifizierte Inhalt, verankert am {{anchoredAt}} (Eintrag {{entry}} von {{size}} im Protokoll, signiert mit dem vertrauenswürdigen Protokollschlüssel {{key}}…).',
        timeConfirmed: 'Zeit bestätigt von {{authority}} am {{when}} (RFC 3161).',
        timeOnly:
          'Dieser Inhalt existierte am {{when}}, laut {{authority}} (RFC-3161-Zeitstempel); der eigene Nachweis des Dienstes kann hier nicht geprüft werden.',
        noTimestamp: 'Kein unabhängiger Zeitstempel: Die Zeit beruht allein auf dem Protokoll.',
        content_differs:
          'Dies ist nicht die zertifizierte Datei: der Nachweis gilt für den Inhalt mit SHA-256 {{sha256}} (als Name ist „{{file}}“ angegeben), und der Inhalt dieser Datei ist ein anderer.',
        receipt_invalid: {
          format: 'Dies ist kein Beleg und kein Zertifikat von Evidence Desk, das diese Version lesen kann.',
          copy: 'Der Beleg wurde nach seiner Erstellung bearbeitet: Was er unter „{{field}}“ angibt, hat der Dienst so nicht signiert. Verlassen Sie sich nicht darauf: Bitten Sie den Absender um den ursprünglichen Beleg oder das ursprüngliche Zertifikat.',
          leaf: 'Der Beleg wurde verändert oder beschädigt: Der vom Dienst signierte Eintrag gehört zu einer anderen Zertifizierung als der beschriebenen. Verlassen Sie sich nicht darauf: Bitten Sie den Absender um den ursprünglichen Beleg oder das ursprüngliche Zertifikat.',
          proof:
            'Der Beleg wurde verändert oder beschädigt: Er belegt nicht, dass diese Zertifizierung im Protokoll des Dienstes steht. Verlassen Sie sich nicht darauf: Bitten Sie den Absender um den ursprünglichen Beleg oder das ursprüngliche Zertifikat.',
          root: 'Der Beleg wurde verändert oder beschädigt: Seine Teile stammen aus verschiedenen Ständen des Protokolls. Verlassen Sie sich nicht darauf: Bitten Sie den Absender um den ursprünglichen Beleg oder das ursprüngliche Zertifikat.',
          signature:
            'Der Beleg wurde verändert oder beschädigt: Die Signatur des Dienstes darauf ist ungültig. Verlassen Sie sich nicht darauf: Bitten Sie den Absender um den ursprünglichen Beleg oder das ursprüngliche Zertifikat.',
          key_id:
            'Der Protokollschlüssel im Beleg passt nicht zu seinem eigenen Fingerabdruck: Der Beleg wurde verändert.',
          ambiguous:
            'Das Zertifikat enthält mehr als einen Beleg; es ist nicht eindeutig, welcher gilt. Es wird daher abgelehnt.',
          limit: 'Der Nachweis wurde abgelehnt: {{bound}}.',
        },
        timestamp_invalid: {
          format: 'Der unabhängige Zeitstempel kann nicht gelesen werden.',
          status: 'Der Zeitstempeldienst hat den Zeitstempel nicht bewilligt.',
          path: 'Der Zeitstempel deckt diese Zertifizierung nicht ab.',
          imprint: 'Der Zeitstempel gilt für andere Daten als diese Zertifizierung.',
          nonce: 'Der Zeitstempel ist nicht die Antwort auf die Anfrage, die er zu beantworten vorgibt.',
          signature: 'Die Signatur des Zeitstempeldienstes ist ungültig.',
          usage: 'Das Zertifikat, das den Zeitstempel signiert hat, ist nicht für Zeitstempel bestimmt.',
          signer_binding: 'Der Zeitstempel nennt das Zertifikat nicht, das ihn signiert hat.',
          validity: 'Die Zeit des Zeitstempels liegt außerhalb der Gültigkeit seines Unterzeichners.',
          chain: 'Das Zertifikat des Zeitstempels führt zu keinem vertrauenswürdigen Wurzelzertifikat.',
          revoked:
            'Das Zertifikat des Zeitstempeldienstes wurde widerrufen, bevor es den Zeitstempel signierte, oder weil sein Schlüssel kompromittiert wurde: auf die Zeit dieses Zeitstempels ist kein Verlass.',
          record:
            'Der Beweisdatensatz ist ungültig: Er verknüpft dieses Dokument nicht mit seinen Zeitstempeln, oder ein Zeitstempel darin ist ungültig.',
        },
        untrusted_key:
          'Der Beleg ist in sich stimmig, aber mit einem Protokollschlüssel signiert, dem dieser Computer nicht vertraut (Fingerabdruck {{fingerprint}}). Vergleichen Sie ihn mit dem vom Dienst veröffentlichten; wenn beide übereinstimmen, vertrauen Sie ihm und prüfen Sie erneut.',
        untrusted_tsa:
          'Der Beleg ist in sich stimmig, aber seine Zeit wurde von {{authority}} bestätigt, dessen Wurzel dieser Computer nicht vertraut (Fingerabdruck {{fingerprint}}).',
        not_anchored:
          'Der Nachweis passt zu diesem Dokument, wurde aber erstellt, bevor der Dienst die Zertifizierung verankert hatte; er kann daher noch nicht geprüft werden. Sobald die Zertifizierung verankert ist (meist innerhalb von Minuten), speichern Sie Beleg oder Zertifikat in Evidence Desk erneut und prüfen Sie diesen.',
        seal: {
          sealed:
            'Das Zertifikat-PDF wurde am {{when}} von {{authority}} versiegelt und ist seitdem unverändert.',
          unsealed: 'Das Zertifikat-PDF ist nicht versiegelt: geprüft wurde nur der Beleg darin.',
          standing: 'Status des Zeitstempeldienstes beim Versiegeln: {{standing}}.',
          untrusted:
            'Das Zertifikat-PDF wurde von {{authority}} versiegelt, aber Sie vertrauen der Wurzel dieses Siegels nicht (Fingerabdruck {{fingerprint}}): das Siegel wurde daher nicht berücksichtigt.',
          broken:
            'Das Zertifikat-PDF wurde nach dem Versiegeln verändert: sein Siegel ist nicht mehr gültig. Der enthaltene Beleg kann für das Dokument weiterhin als Nachweis dienen; verlassen Sie sich aber auf nichts anderes in diesem PDF.',
        },
        demo: 'DEMO: Diese Zertifizierung wurde in einer Sandbox erstellt. Die Kryptografie ist echt, die Zertifizierung hat aber keinen Beweiswert.',
      },
      signedHeading: 'Signiert',
      statedHeading: 'Angaben des Ausstellers dieses Belegs, nicht signiert',
      facts: {
        event: 'Ereignis',
        sourceSystem: 'Quellsystem',
        certifiedAt: 'Zertifiziert am',
        anchoredAt: 'Verankert am',
        logEntry: 'Protokolleintrag',
        logEntryValue: '{{entry}} von {{size}}',
        certificationId: 'Zertifizierungs-ID',
        timeConfirmedAt: 'Zeit bestätigt am',
        timeConfirmedBy: 'Zeit bestätigt durch',
        timeStanding: 'Status des Zeitstempeldienstes zum Zeitpunkt des Zeitstempels',
        record: 'Beweisdatensatz (Evidence Record, RFC 4998)',
        keyFingerprint: 'Fingerabdruck des Protokollschlüssels',
        fileName: 'Dateiname',
        matter: 'Akte',
        certifiedBy: 'Zertifiziert von',
        login: 'Anmeldename am Computer',
        queuedAt: 'Eingereiht am (Uhr des Computers)',
        seenAnchoredAt: 'Als verankert gesehen am (Uhr des Computers)',
      },
      close: 'Schließen',
    },
    verifySet: {
      title: 'Dokumentenbestand prüfen',
      open: 'Dokumentenbestand prüfen…',
      explain:
        'Ziehen Sie den zu prüfenden Dokumentenbestand hierher, etwa die der Gegenseite vorgelegten Dokumente oder einen Datenraum (Ordner oder Dateien), und dazu die Referenz: das Nachweispaket, das Register (CSV) oder eine Ladedatei (DAT). Ohne Referenz wird mit den Zertifizierungen auf diesem Computer abgeglichen. Nichts verlässt diesen Computer.',
      chooseSet: 'Ordner wählen…',
      noSet: 'Noch keine Dokumente',
      chooseKit: 'Nachweispaket (Ordner)…',
      chooseFile: 'Nachweispaket (ZIP), Register oder Ladedatei…',
      thisComputer: 'Die Zertifizierungen auf diesem Computer',
      check: 'Prüfen',
      waiting: 'Warte auf die Dokumente.',
      listing: 'Dokumente werden aufgelistet: bisher {{files}}.',
      reading: '{{done}} von {{total}} Dokumenten gelesen.',
      progress: 'Fortschritt',
      couldNotVerify: 'Der Dokumentenbestand konnte nicht geprüft werden',
      passed: 'Bestanden: alles aus der Referenz wurde gefunden und geprüft',
      notPassed: 'Nicht bestanden: siehe die Zeilen unten',
      noDocuments: 'Nicht bestanden: es wurden keine Dokumente zum Prüfen gefunden',
      emptyReference: 'Nicht bestanden: die Referenz enthält nichts, wogegen geprüft werden kann',
      untrustedHeadline:
        'Noch nicht bestanden: zertifiziert, aber mit einem Schlüssel signiert, dem Sie noch nicht vertrauen',
      untrusted_one:
        '{{count}} Dokument ist durch dieses Nachweispaket zertifiziert, aber seine Signaturen beruhen auf einem Schlüssel, dem dieser Computer nicht vertraut. Bevor Sie ihm vertrauen, vergleichen Sie seinen Fingerabdruck mit dem vom Dienst veröffentlichten (beim Dienst selbst, nie beim Absender des Nachweispakets; Ihre IT-Abteilung hilft dabei):',
      untrusted_other:
        '{{count}} Dokumente sind durch dieses Nachweispaket zertifiziert, aber ihre Signaturen beruhen auf Schlüsseln, denen dieser Computer nicht vertraut. Bevor Sie ihnen vertrauen, vergleichen Sie ihre Fingerabdrücke mit den vom Dienst veröffentlichten (beim Dienst selbst, nie beim Absender des Nachweispakets; Ihre IT-Abteilung hilft dabei):',
      logKeyFingerprint: 'Protokollschlüssel: {{fingerprint}}',
      tsaRootFingerprint: 'Wurzelzertifikat des Zeitstempeldienstes: {{fingerprint}}',
      trustKit: 'Sie stimmen überein: erneut prüfen und den Schlüsseln dieses Nachweispakets vertrauen',
      trustedFromKit:
        'Geprüft; wie von Ihnen gewählt, wurde den Schlüsseln dieses Nachweispakets vertraut. Deren Fingerabdrücke:',
      demo: 'DEMO: Zertifizierungen dieser Referenz wurden in einer Sandbox erstellt. Die Kryptografie ist echt, die Zertifizierungen haben aber keinen Beweiswert.',
      against: {
        kit: 'Abgleich mit dem Nachweispaket {{source}}.',
        register: 'Abgleich mit dem Register {{source}}.',
        'load-file': 'Abgleich mit der Ladedatei {{source}}.',
        'this-computer': 'Abgleich mit den Zertifizierungen auf diesem Computer.',
      },
      referenceProblem: 'Aus der Referenz nicht verwendet: {{where}}: {{why}}',
      show: 'Zeigen',
      all: 'Alle ({{count, number}})',
      verdicts: {
        verified: 'Geprüft',
        untrusted: 'Zertifiziert, Schlüssel noch nicht bestätigt',
        changed: 'Geändert',
        renamed: 'Umbenannt',
        not_certified: 'Nicht zertifiziert',
        missing: 'Fehlt',
        unreadable: 'Nicht lesbar',
      },
      results: 'Eine Zeile je Dokument',
      document: 'Dokument',
      verdict: 'Ergebnis',
      certification: 'Zertifizierung',
      signed: 'Zertifiziert am {{when}}',
      notSigned: 'Nach Inhalt gefunden; niemand hat eine Zeit dafür signiert',
      more: '{{count}} weitere Zeilen stehen im Bericht.',
      saveReportPdf: 'Bericht speichern (PDF)…',
      saveReportCsv: 'Bericht speichern (CSV)…',
      saved: 'Der Bericht wurde in {{file}} gespeichert.',
      close: 'Schließen',
    },
    records: {
      notRenewedYet_one:
        'Beweisdatensatz (RFC 4998) von {{count}} Dokument: gültig bis {{until, when}}; Evidence Desk erneuert ihn vorher.',
      notRenewedYet_other:
        'Beweisdatensätze (RFC 4998) von {{count}} Dokumenten: gültig bis {{until, when}}; Evidence Desk erneuert sie vorher.',
      renewed_one:
        'Beweisdatensatz (RFC 4998) von {{count}} Dokument: zuletzt erneuert am {{at, when}} durch {{authority}}; wird um den {{next, when}} automatisch erneut erneuert, nichts zu tun.',
      renewed_other:
        'Beweisdatensätze (RFC 4998) von {{count}} Dokumenten: zuletzt erneuert am {{at, when}} durch {{authority}}; wird um den {{next, when}} automatisch erneut erneuert, nichts zu tun.',
      expired_one:
        'Der Beweisdatensatz von {{count}} Dokument erfordert Ihre Aufmerksamkeit: Das Protokoll des Dienstes und der Beleg weisen weiterhin nach, wann das Dokument zertifiziert wurde, aber sein Zeitstempel lässt sich nicht mehr aus sich heraus prüfen: Er wurde nicht erneuert, bevor das Zertifikat seines neuesten Zeitstempels ablief. Bitten Sie die IT, den Zeitstempeldienst in den Einstellungen zu prüfen.',
      expired_other:
        'Die Beweisdatensätze von {{count}} Dokumenten erfordern Ihre Aufmerksamkeit: Das Protokoll des Dienstes und die Belege weisen weiterhin nach, wann die Dokumente zertifiziert wurden, aber ihre Zeitstempel lassen sich nicht mehr aus sich heraus prüfen: Sie wurden nicht erneuert, bevor das Zertifikat ihres neuesten Zeitstempels ablief. Bitten Sie die IT, den Zeitstempeldienst in den Einstellungen zu prüfen.',
      waiting_one:
        'Erneuerung verzögert: Der Beweisdatensatz von {{count}} Dokument muss vor dem {{until, when}} erneuert werden. {{why}} Evidence Desk fragt erneut an; wenn dieser Hinweis bleibt, prüfen Sie den Zeitstempeldienst in den Einstellungen.',
      waiting_other:
        'Erneuerung verzögert: Die Beweisdatensätze von {{count}} Dokumenten müssen vor dem {{until, when}} erneuert werden. {{why}} Evidence Desk fragt erneut an; wenn dieser Hinweis bleibt, prüfen Sie den Zeitstempeldienst in den Einstellungen.',
      noAuthority_one:
        'Der Beweisdatensatz von {{count}} Dokument ist zur Erneuerung fällig, aber das Profil nennt keinen Zeitstempeldienst. Wählen Sie vor dem {{until, when}} in den Einstellungen einen Zeitstempeldienst aus.',
      noAuthority_other:
        'Die Beweisdatensätze von {{count}} Dokumenten sind zur Erneuerung fällig, aber das Profil nennt keinen Zeitstempeldienst. Wählen Sie vor dem {{until, when}} in den Einstellungen einen Zeitstempeldienst aus.',
      notFound_one:
        'Die IT hat SHA-256 ausgemustert; Beweisdatensätze werden daher aus den Dokumenten selbst auf SHA-512 erneuert. {{count}} Dokument wurde weder dort gefunden, wo es zertifiziert wurde, noch in einem überwachten Ordner; sein Beweisdatensatz bleibt, wie er ist, bis Sie Evidence Desk zeigen, wo es jetzt liegt:',
      notFound_other:
        'Die IT hat SHA-256 ausgemustert; Beweisdatensätze werden daher aus den Dokumenten selbst auf SHA-512 erneuert. {{count}} Dokumente wurden weder dort gefunden, wo sie zertifiziert wurden, noch in einem überwachten Ordner; ihre Beweisdatensätze bleiben, wie sie sind, bis Sie Evidence Desk zeigen, wo sie jetzt liegen:',
      notFoundMatter: 'Akte {{matter}}: {{names}}',
      notFoundNoMatter: 'Ohne Akte: {{names}}',
      andMore: '{{names}} und {{count}} weitere',
      lookInFolder: 'In einem Ordner suchen…',
      openSettings: 'Einstellungen öffnen',
    },
    watch: {
      title: 'Überwachte Ordner',
      explain:
        'Dateien, die in einem überwachten Ordner eingehen, werden automatisch zertifiziert, jeweils sobald sie sich nicht mehr ändern, etwa Scans vom Kopierer oder Exporte aus dem Dokumentenmanagementsystem. Nur ihre Fingerabdrücke verlassen diesen Computer. Evidence Desk überwacht, solange es läuft, auch aus dem Infobereich.',
      none: 'Noch wird kein Ordner überwacht.',
      couldNotRead:
        'Die überwachten Ordner konnten nicht gelesen werden: {{reason}} Öffnen Sie die Einstellungen, um sie erneut anzuzeigen.',
      add: 'Ordner überwachen…',
      status: {
        starting: 'Startet',
        catching_up: 'Holt nach, was angekommen ist',
        watching: 'Überwacht, {{how}}',
        paused: 'Pausiert',
        unavailable: 'Wird nicht überwacht',
      },
      byEvents: 'über jede Änderung informiert',
      polledEvery: 'sieht alle {{seconds}} s nach (Netzwerkfreigabe)',
      summary: 'Akte {{matter}} · {{eventType}} · {{assetType}} · {{include}} · {{subfolders}}',
      noMatter: 'keine',
      everyFile: 'jede Datei',
      withSubfolders: 'mit Unterordnern',
      withoutSubfolders: 'ohne Unterordner',
      receiptsBesideShort: 'Belege neben den Dateien',
      pause: 'Pausieren',
      resume: 'Fortsetzen',
      pauseFolder: 'Überwachung von {{path}} pausieren',
      resumeFolder: 'Überwachung von {{path}} fortsetzen',
      remove: 'Nicht mehr überwachen',
      removeFolder: '{{path}} nicht mehr überwachen (seine Zertifizierungen bleiben)',
      setUp: 'Überwachung von {{path}} einrichten',
      include: 'Welche Dateien (leer lassen für jede Datei)',
      includePlaceholder: 'zum Beispiel *.pdf',
      subfolders: 'Auch Dateien in Unterordnern',
      receiptsBeside: 'Jeden Beleg nach der Verankerung neben seine Datei schreiben',
      settle: 'Eine Datei zertifizieren, wenn sie sich so lange nicht geändert hat (Sekunden)',
      method: 'Wie neue Dateien bemerkt werden',
      methods: {
        auto: 'Automatisch nach Speicherort des Ordners (Netzwerkfreigaben werden regelmäßig abgefragt)',
        events: 'Das System meldet jede Änderung (ein Ordner auf diesem Computer)',
        poll: 'Regelmäßig nachsehen (eine Netzwerkfreigabe oder ein verbundenes Laufwerk)',
      },
      pollSeconds: 'Nachsehen alle (Sekunden)',
      cancel: 'Abbrechen',
      watch: 'Diesen Ordner überwachen',
      header_one: '{{count}} Ordner überwacht',
      header_other: '{{count}} Ordner überwacht',
      fromFolder: 'aus {{name}}',
      fromFolderTitle: 'Gefunden im überwachten Ordner {{path}}',
      bannerOne: 'Ein überwachter Ordner wird nicht überwacht. {{why}}',
      bannerMany:
        '{{count}} überwachte Ordner werden nicht überwacht. Öffnen Sie die Einstellungen, um den Grund zu sehen.',
      openSettings: 'Einstellungen öffnen',
    },
    settings: {
      title: 'Einstellungen',
      loading: 'Die aktuellen Einstellungen werden geladen…',
      couldNotRead: 'Die aktuellen Einstellungen konnten nicht gelesen werden: {{reason}}',
      service: 'Zertifizierungsdienst',
      environmentLabel: 'Umgebung',
      environments: {
        embedded: 'Eingebaute Sandbox (Demo, ohne Zugangsdaten)',
        'service-sandbox': 'Sandbox des Dienstes',
        production: 'Produktivumgebung',
        custom: 'Eigener Dienst',
      },
      profileId: 'Profilname (Kleinbuchstaben)',
      baseUrl: 'Adresse des Dienstes (Basis-URL)',
      tokenUrl: 'Token-Adresse (Token-URL)',
      clientId: 'Client-ID',
      clientSecret: 'Client-Geheimnis',
      apiKey: 'API-Schlüssel (optional)',
      apiSecret: 'API-Geheimnis (optional)',
      hmacKey: 'Signaturschlüssel (HMAC)',
      signRequests: 'Anfragen signieren',
      logKey: 'Protokollschlüssel (optional: öffentlicher PEM-Schlüssel oder SHA-256-Fingerabdruck)',
      savedSecret: '(im Schlüsselbund gespeichert — zum Ersetzen eintippen)',
      invalid: {
        id: 'Kleinbuchstaben, Ziffern und Bindestriche, beginnend mit Buchstabe oder Ziffer (höchstens 40).',
        url: 'Geben Sie eine vollständige Adresse ein, etwa https://api.example.com.',
        urlHttps:
          'Für die Produktivumgebung muss die Adresse mit https:// beginnen (einfaches http:// erreicht nur diesen Computer).',
        urlCredentials:
          'Lassen Sie Benutzername und Passwort aus der Adresse weg; verwenden Sie Client-ID und Client-Geheimnis.',
        clientId: 'Geben Sie die Client-ID ein, die Ihnen der Dienst genannt hat.',
        clientSecret: 'Geben Sie das Client-Geheimnis ein, das Ihnen der Dienst genannt hat.',
        hmacKey: 'Signieren ist eingeschaltet: Geben Sie den Signaturschlüssel des Dienstes ein.',
        logKey:
          'Fügen Sie einen öffentlichen PEM-Schlüssel (-----BEGIN PUBLIC KEY-----…) oder einen Fingerabdruck aus 64 Hexadezimalzeichen ein.',
        tsaUrl:
          'Geben Sie die vollständige Adresse des Zeitstempeldienstes ein, etwa http://timestamp.digicert.com.',
        tsaPolicy:
          'Geben Sie die Richtlinie als Objektbezeichner (OID) an, etwa 1.2.3.4, oder lassen Sie das Feld leer.',
        tsaCa:
          'Fügen Sie das Wurzelzertifikat des Zeitstempeldienstes ein (PEM, beginnt mit -----BEGIN CERTIFICATE-----).',
        tsaInterval:
          'Geben Sie eine ganze Zahl von Sekunden ein, von 0 bis 86400 (ein Tag), oder lassen Sie das Feld leer.',
        other: 'Bitte prüfen Sie diesen Wert.',
      },
      tsa: {
        title: 'Unabhängige Zeit (RFC 3161)',
        use: 'Die Zeit jedes Stapels von einem Zeitstempeldienst bestätigen lassen',
        url: 'Adresse des Zeitstempeldienstes',
        policy: 'Richtlinie (optional, Objektbezeichner/OID)',
        interval: 'Mindestabstand zwischen zwei Anfragen (Sekunden)',
        intervalHint:
          'Öffentliche Zeitstempeldienste sperren oder berechnen einen Computer, der schneller fragt, als sie erlauben; Evidence Desk stellt eine Anfrage nach der anderen, in diesem Abstand. Für die bekannten Dienste vorausgefüllt.',
        suggestions:
          'Bekannte Zeitstempeldienste: {{names}}. Es wird nichts automatisch abgerufen: Laden Sie das Wurzelzertifikat von der Website des Zeitstempeldienstes herunter und fügen Sie es unten ein.',
        roots: 'Wurzelzertifikat(e), denen vertraut wird (PEM)',
        embedded:
          'Die Demo-Sandbox bestätigt die Zeit jedes Stapels mit ihrem eigenen DEMO-Zeitstempeldienst (RFC 3161).',
      },
      fixFirst: 'Einige Einstellungen brauchen Ihre Aufmerksamkeit; sie sind oben markiert.',
      preferences: 'Einstellungen',
      you: 'Sie und Ihre Kanzlei',
      sourceSystem: 'Quellsystem',
      sourceSystemHint:
        'Der Name, den der Dienst als Herkunft Ihrer Zertifizierungen erfasst. Ihre IT-Abteilung kann ihn festlegen.',
      sourceSystemByPolicy: 'Von Ihrer IT-Abteilung für diesen Computer festgelegt.',
      receiptsBeside:
        'Einen Beleg neben jeder zertifizierten Datei speichern, sobald sie verankert ist (<code>DATEI.receipt.json</code>)',
      language: 'Sprache',
      systemLanguage: 'Wie auf diesem Computer ({{name}})',
      launchAtLogin:
        'Evidence Desk bei der Anmeldung starten, damit Zertifizierungen im Hintergrund weiterlaufen',
      testing: 'Verbindung wird getestet…',
      tested: 'Verbunden: Der Dienst hat ein Token ausgestellt (gültig {{seconds}} s).',
      saved: 'Gespeichert.',
      test: 'Verbindung testen',
      close: 'Schließen',
      save: 'Speichern',
    },
    errors: {
      generic: 'In Evidence Desk ist etwas schiefgegangen.',
    },
  },
  said: {
    asWritten: '{{text}}',
    state: STATE_WORDS,
    preferences: {
      sourceSystemByPolicy:
        'Ihre IT-Abteilung legt das Quellsystem für diesen Computer fest (Richtlinie SourceSystem).',
    },
    vocabulary: {
      event: {
        DOCUMENT_SIGNED: 'Unterzeichnet',
        DOCUMENT_RECEIVED: 'Empfangen',
        DOCUMENT_SENT: 'Versandt',
        DOCUMENT_PRODUCED: 'Der Gegenseite vorgelegt',
        DOCUMENT_FILED: 'Bei Gericht eingereicht',
        EVIDENCE_COLLECTED: 'Als Beweismittel gesichert',
        DOCUMENT_APPROVED: 'Genehmigt',
        DOCUMENT_ARCHIVED: 'Archiviert',
      },
      kind: {
        contract: 'Vertrag',
        correspondence: 'Korrespondenz',
        exhibit: 'Anlage',
        scan: 'Scan',
        email: 'E-Mail',
        invoice: 'Rechnung',
        image: 'Bild',
        recording: 'Aufnahme',
        document: 'Sonstiges Dokument',
      },
    },
    limits: {
      receiptBytes: `ein Beleg wird nur bis zu ${size(LIMITS.receiptBytes)} gelesen; dieser ist größer`,
      jsonDepth: `in einem Beleg dürfen höchstens ${LIMITS.jsonDepth} Listen und Objekte ineinander verschachtelt sein; in diesem sind es mehr`,
      jsonValues: `ein Beleg darf höchstens ${number(LIMITS.jsonValues)} Werte enthalten; dieser enthält mehr`,
      textChars: `ein Textfeld in einem Beleg darf höchstens ${number(LIMITS.textChars)} Zeichen lang sein; dieses ist länger`,
      base64Chars: `ein Zeitstempel oder ein Signaturzertifikat im Beleg darf höchstens ${number(LIMITS.base64Chars)} Zeichen (Base64) lang sein; hier sind es mehr`,
      chainCertificates: `die Zertifikatskette eines Zeitstempels darf höchstens ${LIMITS.chainCertificates} Zertifikate umfassen; diese umfasst mehr`,
      howToLines: `die Prüfanleitung in einem Beleg darf höchstens ${LIMITS.howToLines} Zeilen lang sein; diese ist länger`,
      zipEntries: `das Zip eines Nachweispakets darf höchstens ${number(LIMITS.zipEntries)} Dateien enthalten; dieses enthält mehr`,
      zipExpandedBytes: `die Belege im Zip eines Nachweispakets dürfen entpackt zusammen höchstens ${size(LIMITS.zipExpandedBytes)} groß sein; diese sind größer`,
      zipEntryRatio: `das Zip eines Nachweispakets darf beim Entpacken höchstens auf das ${LIMITS.zipEntryRatio}-Fache anwachsen, Datei für Datei und insgesamt; dieses wächst stärker (Merkmal einer Zip-Bombe)`,
      kitSealPartBytes: `eine Siegeldatei eines Nachweispakets (Manifest, Zeitstempel oder Zertifikate) wird nur bis zu ${size(LIMITS.kitSealPartBytes)} gelesen; diese ist größer`,
      pdfBytes: `ein Zertifikat-PDF wird nur bis zu ${size(LIMITS.pdfBytes)} gelesen; dieses ist größer`,
      pdfObjects: `ein Zertifikat-PDF darf höchstens ${number(LIMITS.pdfObjects)} Objekte enthalten; dieses enthält mehr`,
      pdfRevisions: `ein Zertifikat-PDF darf höchstens ${LIMITS.pdfRevisions} Revisionen (Änderungsstände) haben; dieses hat mehr`,
      pdfAttachments: `ein Zertifikat-PDF darf höchstens ${LIMITS.pdfAttachments} Dateianhänge enthalten; dieses enthält mehr`,
      loadFileLineBytes: `eine Zeile einer Ladedatei oder eines Registers wird nur bis zu ${size(LIMITS.loadFileLineBytes)} gelesen; diese ist länger`,
      loadFileFields: `eine Zeile einer Ladedatei darf höchstens ${number(LIMITS.loadFileFields)} Felder haben; diese hat mehr`,
      pathDepth: `Ordner werden nur bis zu ${LIMITS.pathDepth} Ebenen tief geöffnet; dieser liegt tiefer`,
    },
    file: {
      notADocument: 'Dies ist {{kind}}, kein Dokument, und kann daher nicht zertifiziert werden.',
      kind: {
        fifo: 'eine Pipe',
        socket: 'ein Socket',
        device: 'ein Gerät',
        other: 'keine gewöhnliche Datei',
      },
      folderLoop: 'Dieser Ordner enthält einen Verweis auf sich selbst; er wurde nicht noch einmal geöffnet.',
      noPermissionFor: 'Sie haben keine Berechtigung, {{name}} zu lesen.',
      noPermission: 'Sie haben keine Berechtigung, diese Datei zu lesen.',
      missing: '{{name}} existiert nicht (vielleicht verschoben oder gelöscht).',
      tooDeep: `{{name}} liegt tiefer als ${LIMITS.pathDepth} Ordnerebenen und wurde nicht geöffnet.`,
      linkOutside:
        '{{name}} ist ein Verweis auf einen Ort außerhalb des gewählten Ordners; er wurde nicht verfolgt.',
      linkedAgain:
        '{{name}} ist ein Verweis auf einen bereits aufgelisteten Ordner: er wurde nicht erneut aufgelistet.',
      linkLoop: '{{name}} ist ein Verweis, der auf sich selbst zeigt.',
      unreadable: 'Die Datei konnte nicht gelesen werden ({{code}}).',
      changedWhileHashing:
        'Die Datei hat sich geändert, während ihr Fingerabdruck berechnet wurde — speichern Sie sie und fügen Sie sie erneut hinzu.',
      replaced:
        'Dies wurde beim Hinzufügen durch etwas ersetzt, das kein Dokument ist (eine Pipe oder ein Gerät).',
      disappeared: 'Die Datei ist verschwunden, bevor ihr Fingerabdruck berechnet werden konnte.',
      hashingFailed: 'Der Fingerabdruck konnte nicht berechnet werden: {{reason}}.',
      doesNotExist: '{{path}} existiert nicht oder kann nicht gelesen werden.',
      notRegular: '{{path}} ist keine gewöhnliche Datei.',
      couldNotRead: '{{path}} konnte nicht gelesen werden ({{code}}).',
    },
    service: {
      said: 'Der Dienst sagte: „{{said}}“',
      answeredStatus: 'Der Dienst antwortete {{status}} {{statusText}}.',
      notJson: 'Der Dienst antwortete mit etwas, das kein JSON ist.',
      captivePortal:
        'Statt der Daten des Dienstes kam eine Webseite zurück: eine Anmeldeseite für WLAN oder Proxy oder eine Wartungsseite. Wenn ein Webbrowser eine Anmeldeseite zeigt, melden Sie sich im Netzwerk an und versuchen Sie es erneut.',
      nothingToRead:
        'Der Dienst antwortete {{status}}, ohne Inhalt und ohne eine eigene Adresse, unter der er zu lesen wäre.',
      redirected:
        'Der Dienst hat diese Anfrage anderswohin umgeleitet ({{status}} nach {{target}}); Evidence Desk folgt dem nicht. Prüfen Sie die Adresse des Dienstes in den Einstellungen.',
      noAddress: 'keine Adresse',
      credentialsRefused: 'Der Dienst hat die Zugangsdaten abgelehnt: {{reason}}',
      tokenNotJson: 'Die Token-Adresse antwortete mit etwas, das kein JSON ist.',
      noAccessToken: 'Die Token-Adresse hat kein Zugriffstoken gesendet.',
      withdrawn: 'Die Anfrage wurde zurückgezogen, bevor sie abgeschlossen war.',
      timeout: 'Der Dienst hat nicht rechtzeitig geantwortet.',
      unreachable: 'Der Dienst ist nicht erreichbar: {{reason}}.',
      requestNotMade: 'Die Anfrage konnte nicht gestellt werden: {{reason}}',
      noLogKey: 'Der Dienst hat keinen Protokollschlüssel veröffentlicht.',
      unreadableConsistency:
        'Der Dienst hat einen Konsistenznachweis gesendet, den diese App nicht lesen kann.',
      notACertification: 'Der Dienst antwortete mit etwas, das keine Zertifizierung ist.',
      noId: 'Der Dienst hat nicht gesagt, um welche Zertifizierung es sich handelt (keine ID).',
      reportsFailed: 'Der Dienst meldet diese Zertifizierung als fehlgeschlagen (Status „{{state}}“).',
      unknownState:
        'Der Dienst meldet für diese Zertifizierung den Status „{{word}}“, den Evidence Desk nicht kennt; Evidence Desk fragt weiter nach, bis der Dienst „verankert“ oder „fehlgeschlagen“ meldet.',
      lost: 'Der Dienst kennt diese Zertifizierung nicht mehr.',
      lastLookFailed: 'Die letzte Abfrage beim Dienst ist fehlgeschlagen: {{reason}}',
    },
    network: {
      refused:
        'unter dieser Adresse antwortet nichts (der Dienst ist vielleicht ausgefallen oder die Adresse falsch)',
      unknownName: 'dieser Servername ist unbekannt (prüfen Sie die Adresse oder die Netzwerkverbindung)',
      lookupFailed: 'der Servername konnte nicht aufgelöst werden (das Netzwerk ist vielleicht ausgefallen)',
      cutOff: 'die Verbindung wurde unterbrochen',
      timedOut: 'die Verbindung hat zu lange gedauert',
      hostUnreachable: 'der Server ist aus diesem Netzwerk nicht erreichbar',
      noNetwork: 'dieser Computer ist mit keinem Netzwerk verbunden',
      other: 'das Netzwerk meldete „{{detail}}“',
      proxyWantsPassword:
        'der Proxy verlangt einen Benutzernamen und ein Passwort, die Evidence Desk nicht hat: bitten Sie die IT, Evidence Desk durchzulassen oder den Proxy für diesen Computer einzurichten',
      proxyWantsPasswordHere:
        'der Proxy verlangt einen Benutzernamen und ein Passwort: geben Sie sie in der Proxy-Adresse an (HTTPS_PROXY=http://benutzer:passwort@proxy:port) oder bitten Sie die IT um einen Proxy, der Evidence Desk durchlässt',
      proxyRefused:
        'der Proxy hat die Verbindung abgelehnt oder nicht herstellen können: bitten Sie die IT, {{host}} zuzulassen',
      proxyRefusedStatus:
        'der Proxy hat die Verbindung abgelehnt ({{status}}): bitten Sie die IT, {{host}} zuzulassen',
      certificateUntrusted:
        'dem Zertifikat für {{host}} vertraut dieser Computer nicht. Wenn Ihre Organisation den TLS-Verkehr prüft, bitten Sie die IT, ihr CA-Zertifikat im Zertifikatspeicher des Systems zu installieren',
      certificateUntrustedIssuer:
        'dem Zertifikat für {{host}}, ausgestellt von „{{issuer}}“, vertraut dieser Computer nicht. Wenn Ihre Organisation den TLS-Verkehr prüft, bitten Sie die IT um ihr CA-Zertifikat und geben Sie es mit NODE_EXTRA_CA_CERTS oder „profile set --ca-file“ an',
      certificateUntrustedHere:
        'dem Zertifikat für {{host}} vertraut dieser Computer nicht. Wenn Ihre Organisation den TLS-Verkehr prüft, bitten Sie die IT um ihr CA-Zertifikat und geben Sie es mit NODE_EXTRA_CA_CERTS oder „profile set --ca-file“ an',
      certificateExpired: 'das Zertifikat des Dienstes ist abgelaufen ({{host}})',
      certificateWrongName:
        'das vorgelegte Zertifikat gilt nicht für {{host}}: möglicherweise fängt etwas im Netzwerk die Verbindung ab',
    },
    sync: {
      paused: 'Das Senden ist angehalten; die Zertifizierungen warten hier, bis es fortgesetzt wird.',
      standbyApp:
        'Die Evidence-Desk-App auf diesem Computer sendet diese Warteschlange; dieser Prozess wartet, bis er an der Reihe ist.',
      standbyCommandLine:
        'Diese Warteschlange wird von der Kommandozeile (evidence-desk) gesendet; dieser Prozess übernimmt, wenn sie fertig ist.',
      takenOver:
        'Ein anderer Prozess hat das Senden dieser Warteschlange übernommen; dieser hat sofort aufgehört.',
      internalError: 'Das Senden wurde durch einen internen Fehler unterbrochen; es wird erneut versucht.',
      didNotSettle:
        'Die Zertifizierungen sind nicht rechtzeitig abgeschlossen worden; sie bleiben in der Warteschlange und werden weiter gesendet.',
      blocked: 'Das Senden ist blockiert: {{reason}} Die Zertifizierungen bleiben in der Warteschlange.',
      cannotBeUsed: 'mit diesen Einstellungen kann der Dienst nicht genutzt werden.',
    },
    history: {
      acceptedAs: 'angenommen als {{serviceId}}',
      sentAgain: 'auf Wunsch erneut gesendet',
      sentAgainBy: 'auf Wunsch von {{user}} erneut gesendet',
      resumed: 'fortgesetzt, nachdem die App beim Senden beendet wurde',
      serviceReports: 'der Dienst meldet den Status „{{state}}“',
      checkedAgain: 'erneut geprüft: {{result}}',
    },
    evidence: {
      none: 'Der Dienst hat keinen Nachweis zum Prüfen gesendet; seine Antwort wird unverändert aufbewahrt.',
      unknownFormat:
        'Der Nachweis liegt in einem Format vor, das diese App nicht prüfen kann; er wird unverändert aufbewahrt.',
      keptAsReceived: '{{reason}} Der Nachweis wird unverändert aufbewahrt.',
      didNotVerify: 'Der Nachweis hält der Prüfung nicht stand: {{reason}}',
      verified: 'Nachweis geprüft: Eintrag {{entry}} von {{size}} im Protokoll, signiert am {{signedAt}}.',
      notAnchoredYet: 'Noch nicht verankert ({{state}}).',
      failure: {
        evidence_unreadable: 'der Nachweis kann nicht gelesen werden',
        leaf_hash_mismatch: 'sein Protokolleintrag passt nicht zu der Zertifizierung, die er beschreibt',
        asset_hash_mismatch: 'er gilt für einen anderen Inhalt als diese Datei',
        certification_mismatch: 'er gilt für eine andere Zertifizierung',
        inclusion_proof_invalid: 'der Prüfpfad führt nicht zur signierten Wurzel des Protokolls',
        tree_head_mismatch: 'Prüfpfad und signierter Protokollstand beschreiben verschiedene Protokolle',
        tree_head_signature_invalid: 'die Signatur des Protokolls ist ungültig',
        key_id_mismatch: 'er nennt einen anderen Protokollschlüssel als den vertrauenswürdigen',
      },
      logKeyUnreadableSetting:
        'Der in den Einstellungen angegebene Protokollschlüssel ist kein lesbarer öffentlicher Schlüssel.',
      logKeyNotExpected:
        'Der Dienst veröffentlicht einen Protokollschlüssel mit dem Fingerabdruck {{fingerprint}}, nicht den in den Einstellungen angegebenen {{expected}}; seinen Nachweisen wird nicht vertraut.',
      logKeyNotFetched:
        'Der Protokollschlüssel zum Prüfen des Nachweises konnte nicht abgerufen werden; er wird später erneut angefragt.',
      logKeyUnreadable:
        'Der Dienst hat einen Protokollschlüssel veröffentlicht, der kein lesbarer Ed25519-Schlüssel ist.',
      logKeyChanged:
        'Der Protokollschlüssel des Dienstes hat sich geändert (Fingerabdruck {{before}}… ist jetzt {{after}}…). Nachweise werden mit dem neuen Schlüssel erst geprüft, wenn Sie ihn annehmen, nachdem Sie seinen Fingerabdruck mit dem vom Dienst veröffentlichten verglichen haben (Einstellungen oder evidence-desk profile trust-key).',
      logRewritten:
        'Das Protokoll des Dienstes wurde nachträglich umgeschrieben: Sein signierter Protokollstand mit {{newer}} Einträgen setzt den zuvor gesehenen mit {{older}} Einträgen nicht fort. Keinem Nachweis aus diesem Protokoll kann vertraut werden; benachrichtigen Sie den Betreiber des Dienstes und bewahren Sie Ihre Belege auf.',
    },
    timestamp: {
      httpStatus: 'Der Zeitstempeldienst ({{host}}) antwortete mit HTTP {{status}}.',
      webPage:
        'Die Adresse des Zeitstempeldienstes ({{host}}) antwortete mit einer Webseite statt mit einem Zeitstempel: prüfen Sie die Adresse und ob ein Proxy oder eine Anmeldeseite dazwischensteht.',
      timeout: 'Der Zeitstempeldienst ({{host}}) hat nicht innerhalb von {{seconds}} Sekunden geantwortet.',
      unreachable: 'Der Zeitstempeldienst ({{host}}) ist nicht erreichbar.',
      notAResponse: 'Die Antwort des Zeitstempeldienstes ({{host}}) ist keine RFC-3161-Zeitstempelantwort.',
      noToken:
        'Der Zeitstempeldienst ({{host}}) hat die Anfrage bewilligt, aber keinen Zeitstempel gesendet.',
      refused: 'Der Zeitstempeldienst ({{host}}) {{what}}.',
      refusedSaying: 'Der Zeitstempeldienst ({{host}}) {{what}}: „{{said}}“.',
      status: {
        rejected: 'hat die Anfrage abgelehnt',
        waiting: 'meldet, dass die Anfrage noch bearbeitet wird (Status „waiting“)',
        revocationWarning: 'warnt, dass sein Zertifikat bald widerrufen wird',
        revoked: 'meldet, dass sein Zertifikat widerrufen wurde',
        other: 'antwortete mit Status {{status}}',
      },
      noLongerSet:
        'Der Zeitstempeldienst, für den dieser Stapel vorgesehen war, ist für sein Profil nicht mehr eingestellt.',
      rationed:
        'Der Zeitstempeldienst ({{host}}) bat darum, vor {{until}} nicht erneut angefragt zu werden: Evidence Desk wartet bis dahin.',
      askedNoAnswer:
        'Beim Zeitstempeldienst ({{host}}) angefragt; noch keine Antwort. Evidence Desk fragt erneut, solange es läuft, und beim nächsten Start.',
      check: {
        format: 'Der Zeitstempel von {{host}} ist kein lesbares RFC-3161-Token.',
        status: 'Der Zeitstempeldienst ({{host}}) hat den Zeitstempel nicht bewilligt.',
        path: 'Der Zeitstempel von {{host}} deckt diesen Stapel nicht ab.',
        imprint:
          'Der Zeitstempel von {{host}} gilt für andere Daten als diesen Stapel (sein Message Imprint weicht ab).',
        nonce: 'Der Zeitstempel von {{host}} beantwortet eine andere Anfrage (seine Nonce ist nicht unsere).',
        signature: 'Die Signatur des Zeitstempels von {{host}} ist ungültig.',
        usage:
          'Das Zertifikat, das den Zeitstempel von {{host}} signiert hat, ist nicht für Zeitstempel bestimmt (RFC 3161 verlangt die kritische erweiterte Schlüsselverwendung timeStamping).',
        signer_binding:
          'Der Zeitstempel von {{host}} nennt das Zertifikat nicht, das ihn signiert hat (ESSCertID): ein anderes Zertifikat könnte als Unterzeichner ausgegeben werden.',
        validity:
          'Der Zeitstempel von {{host}} wurde außerhalb der Gültigkeit seines Signaturzertifikats erstellt.',
        chain:
          'Das Zertifikat des Zeitstempeldienstes ({{host}}) führt zum Zeitpunkt des Zeitstempels zu keinem vertrauenswürdigen Wurzelzertifikat.',
        revoked:
          'Das Zertifikat des Zeitstempeldienstes ({{host}}) wurde widerrufen, bevor es den Zeitstempel signierte: wählen Sie im Profil einen anderen Zeitstempeldienst.',
        untrusted:
          'Der Zeitstempel ist in sich stimmig, aber {{authority}} führt zu einem Wurzelzertifikat, dem dieser Computer nicht vertraut (SHA-256-Fingerabdruck {{fingerprint}}). Vergleichen Sie es mit dem vom Zeitstempeldienst veröffentlichten Wurzelzertifikat; wenn beide übereinstimmen, fügen Sie es dem Profil hinzu.',
      },
      validation: {
        notCollected:
          'Die Angaben, mit denen sich diese Zeit auch nach Ablauf des Zertifikats des Zeitstempeldienstes prüfen lässt, wurden noch nicht eingeholt: {{why}} Evidence Desk versucht es später erneut.',
        revoked:
          'Das Zertifikat von {{certificate}} wurde am {{at}} widerrufen, bevor es diesen Zeitstempel signierte: auf die Zeit dieses Zeitstempels ist kein Verlass. Wählen Sie im Profil einen anderen Zeitstempeldienst.',
        compromised:
          'Das Zertifikat von {{certificate}} wurde am {{at}} widerrufen, weil sein Schlüssel kompromittiert wurde: auf seine Zeitstempel ist kein Verlass. Wählen Sie im Profil einen anderen Zeitstempeldienst.',
        timeout: 'der Statusdienst unter {{host}} hat nicht innerhalb von {{seconds}} Sekunden geantwortet.',
        unreachable: 'der Statusdienst unter {{host}} ist nicht erreichbar.',
        httpStatus: 'der Statusdienst unter {{host}} antwortete mit HTTP {{status}}.',
        tooLarge:
          'die Antwort des Statusdienstes unter {{host}} ist größer, als ein Status oder eine Sperrliste sein sollte.',
        noSource:
          'Das Zertifikat von {{certificate}} nennt weder einen Statusdienst (OCSP) noch eine Sperrliste (CRL): diese Zeit lässt sich nur prüfen, solange dieses Zertifikat gültig ist.',
        answer: 'die Antwort von {{host}} zu {{certificate}}: {{gap}}.',
      },
    },
    record: {
      notRenewed:
        'Beweist die Zeit oben; noch nicht erneuert; gültig bis {{until}} (dann läuft das Zertifikat seines Zeitstempeldienstes ab); eine rechtzeitige Erneuerung verlängert das',
      renewedOnce:
        'Beweist die Zeit oben; einmal erneuert, am {{at}} durch {{authority}}; gültig bis {{until}}, wenn er nicht vorher nochmals erneuert wird',
      renewed:
        'Beweist die Zeit oben; {{count}}-mal erneuert, zuletzt am {{at}} durch {{authority}}; gültig bis {{until}}, wenn er nicht vorher nochmals erneuert wird',
      expired:
        'Handlungsbedarf: nicht rechtzeitig erneuert – das Zertifikat seines neuesten Zeitstempels lief am {{until}} ab; er beweist seine Zeit nicht mehr aus sich heraus',
      receiptKept:
        'Hält den Zeitstempel dieses Belegs prüfbar: Der Beleg samt Zeitstempel und Prüfdaten wurde am {{at}} durch {{authority}} erneut mit einem Zeitstempel versehen; gültig bis {{until}}, sofern nicht vorher erneuert',
      receiptKeptRenewed:
        'Hält den Zeitstempel dieses Belegs prüfbar: Der Beleg samt Zeitstempel und Prüfdaten wurde am {{at}} durch {{authority}} erneut mit einem Zeitstempel versehen und zuletzt am {{last}} durch {{lastAuthority}} erneuert; gültig bis {{until}}, sofern nicht vorher nochmals erneuert',
      unlinked:
        'Seine Zeitstempel sind bis {{until}} gültig; er wurde auf SHA-512 erneuert, und ob diese Erneuerung dieses Dokument erfasst, prüft man mit dem Dokument selbst, nicht mit seinem SHA-256 allein',
    },
    standing: {
      good: 'Damals gültig laut signierter Statusauskunft ({{sources}}, beim Zeitstempel aufbewahrt)',
      revokedLater:
        'Damals gültig laut signierter Statusauskunft; später, am {{at}}, widerrufen, aus einem anderen Grund als einem kompromittierten Schlüssel ({{sources}}, beim Zeitstempel aufbewahrt)',
      notShown:
        'Nicht belegt durch die beim Zeitstempel aufbewahrten Daten ({{gap}}): Die Zeit des Zeitstempels lässt sich nur prüfen, solange das Zertifikat des Zeitstempeldienstes gültig ist',
      gap: {
        not_kept: 'es wurde keine Sperrauskunft aufbewahrt',
        missing: 'für {{certificate}} wurde kein Status aufbewahrt',
        unknown: 'der Statusdienst kennt {{certificate}} nicht',
        not_at_that_time:
          'der aufbewahrte Status von {{certificate}} gilt nicht für den Zeitpunkt des Zeitstempels',
        unreadable: 'der aufbewahrte Status von {{certificate}} ist nicht lesbar',
        not_successful: 'der Statusdienst verweigerte die Auskunft zu {{certificate}}',
        other_certificate: 'der aufbewahrte Status betrifft ein anderes Zertifikat als {{certificate}}',
        bad_signature: 'die Signatur auf dem Status von {{certificate}} ist ungültig',
        unauthorised_responder:
          'der Status von {{certificate}} ist von jemandem signiert, den sein Aussteller nicht dazu ermächtigt hat',
        other_issuer:
          'die für {{certificate}} aufbewahrte Sperrliste ist nicht von seinem Aussteller signiert',
      },
    },
    queue: {
      noCertification: 'Es gibt keine Zertifizierung {{id}}.',
      notRemovable: '{{name}} wurde bereits an den Dienst gesendet und kann nicht entfernt werden.',
      illegalTransition: 'Diese Zertifizierung ist jetzt {{from}} und kann daher nicht {{to}} werden.',
    },
    database: {
      tooNew:
        'Die Datenbank der Warteschlange wurde von einem neueren Evidence Desk geschrieben (Schema {{current}}; diese Version kennt {{known}}). Aktualisieren Sie die App; die Datei blieb unverändert.',
      damaged:
        'Die Datenbank der Warteschlange ({{path}}) {{what}}. Sie blieb unverändert; verschieben Sie sie, um eine neue Warteschlange zu beginnen, oder stellen Sie sie aus einer Sicherung wieder her.',
      locked:
        'Die Datenbank der Warteschlange ({{path}}) ist von einem anderen Programm gesperrt, wahrscheinlich einem anderen Evidence Desk. Schließen Sie es und versuchen Sie es erneut; nichts wurde geändert.',
      notWritable:
        'Die Datenbank der Warteschlange ({{path}}) kann nicht zum Schreiben geöffnet werden ({{code}}). Prüfen Sie die Berechtigungen des Ordners.',
      cannotOpen: 'Die Datenbank der Warteschlange ({{path}}) konnte nicht geöffnet werden: {{reason}}',
      isDamaged: 'ist beschädigt',
      isEmpty: 'ist leer (0 Byte), was eine Warteschlange nie ist',
      notOurs: 'ist beschädigt oder keine Datenbank von Evidence Desk',
    },
    profile: {
      logKeyLocked:
        'Ihre IT-Abteilung entscheidet, welchen Protokollschlüsseln dieser Computer vertraut (Richtlinie LockLogKeys): Bitten Sie sie, den neuen Schlüssel zu prüfen und ihm per Richtlinie (TrustedLogKeys) zu vertrauen.',
      noLongerAccepted:
        'Die gespeicherten Einstellungen von „{{id}}“ werden nicht mehr akzeptiert ({{reasons}}); geben Sie sie in den Einstellungen erneut ein.',
      embeddedNeedsNoSettings: 'Die eingebaute Sandbox braucht keine Einstellungen.',
      unknown: 'Es gibt kein Dienstprofil „{{id}}“.',
      secretMissing:
        'Das Client-Geheimnis für „{{id}}“ ist nicht im Schlüsselbund; geben Sie es in den Einstellungen ein.',
      signingKeyMissing:
        'Signieren ist für „{{id}}“ eingeschaltet, aber sein HMAC-Schlüssel ist nicht im Schlüsselbund.',
      demoNotHere:
        'Die Demo-Sandbox läuft in diesem Programm nicht; wählen Sie in den Einstellungen ein Dienstprofil.',
      keychainUnavailable: 'Der Schlüsselbund des Systems konnte nicht verwendet werden: {{reason}}',
    },
    exports: {
      failed: '{{what}} konnte nicht unter {{path}} gespeichert werden: {{why}}.',
      kit: 'Das Nachweispaket',
      register: 'Das Register',
      report: 'Der Bericht',
      chosenPlace: 'dem gewählten Speicherort',
      certificate: 'Das Zertifikat',
      cancelled: 'Das Speichern der Nachweise wurde vor dem Ende abgebrochen: Nichts davon wurde behalten.',
      certificateNotSealed:
        'Das Zertifikat von „{{name}}“ konnte nicht versiegelt werden: {{why}} Es wurde nicht gespeichert: Speichern Sie es erneut, sobald der Zeitstempeldienst antwortet, oder speichern Sie es unversiegelt.',
      kitNotSealed:
        'Das Nachweispaket konnte nicht versiegelt werden: {{why}} Nichts davon wurde behalten: Speichern Sie es erneut, sobald der Zeitstempeldienst antwortet, oder speichern Sie es unversiegelt.',
      sealWaiting: {
        saved:
          'Das Nachweispaket wurde gespeichert, ist aber noch nicht versiegelt: {{why}} Evidence Desk fragt den Zeitstempeldienst erneut und fügt das Siegel dem Paket hinzu, sobald er antwortet; nächster Versuch: {{next, when}}. Bis dahin steht das in META-INF/seal-waiting.txt im Paket.',
        certificate:
          'Das Zertifikat von „{{name}}“ ist noch nicht gespeichert: Es konnte nicht versiegelt werden: {{why}} Evidence Desk fragt den Zeitstempeldienst erneut und speichert das versiegelte Zertifikat am gewählten Ort, sobald er antwortet; nächster Versuch: {{next, when}}.',
        waitingOne: 'Ein Siegel wartet auf den Zeitstempeldienst, für {{where}}: {{why}}',
        waitingMany:
          '{{count}} Siegel warten auf den Zeitstempeldienst; das älteste ist für {{where}}: {{why}}',
        folderGone:
          'der Ordner {{where}} existiert nicht mehr, daher konnte das versiegelte Zertifikat dort nicht gespeichert werden.',
        certificateGone:
          'ihre Zertifizierung ist nicht mehr in Evidence Desk, daher wurde ihr Zertifikat nicht gespeichert.',
        sealed: 'Das Siegel wurde dem Nachweispaket {{where}} hinzugefügt.',
        kitGone:
          'das Paket liegt nicht mehr unter {{where}}, daher kann sein Siegel nicht hinzugefügt werden.',
        kitChanged:
          'das Paket unter {{where}} wurde seit dem Speichern verändert und wird daher nicht versiegelt: Speichern Sie die Nachweise erneut.',
        refused: 'der Zeitstempeldienst hat es nicht versiegelt: {{why}}',
      },
      certificateNotAnchored:
        'Die Zertifizierung von „{{name}}“ ist noch nicht verankert. Ihr Zertifikat lässt sich speichern, sobald sie verankert ist, damit die Empfänger es prüfen können.',
      why: {
        ENOENT: 'dieser Ordner existiert nicht',
        EACCES: 'Evidence Desk darf dort nicht schreiben',
        EROFS: 'dieser Ort ist schreibgeschützt',
        ENOSPC: 'der Datenträger ist voll',
        EDQUOT: 'das Speicherkontingent ist aufgebraucht',
      },
      verifierNotBuilt:
        'Der Offline-Prüfer (verify.html) konnte in diesem Checkout nicht gebaut werden, daher kann kein Nachweispaket erstellt werden: führen Sie npm run build:verifier aus und lesen Sie, was es meldet.',
      verifierMissing:
        'Der Offline-Prüfer (verify.html) fehlt in dieser Installation, daher kann kein Nachweispaket erstellt werden. Installieren Sie Evidence Desk neu.',
    },
    watch: {
      notChosen: 'Wählen Sie den zu überwachenden Ordner im Ordnerdialog.',
      notAFolder: '{{path}} ist kein Ordner.',
      folderMissing:
        '{{path}} ist nicht da: Der Ordner wurde vielleicht verschoben oder gelöscht, oder sein Laufwerk oder seine Freigabe ist nicht verbunden. Er wird alle paar Sekunden erneut geprüft.',
      folderNoPermission:
        'Sie haben keine Berechtigung, {{path}} zu lesen. Der Ordner wird alle paar Sekunden erneut geprüft.',
      folderUnreadable:
        '{{path}} kann nicht gelesen werden ({{code}}). Der Ordner wird alle paar Sekunden erneut geprüft.',
      alreadyWatched: '{{path}} wird bereits überwacht.',
      noSuchFolder: 'Kein überwachter Ordner ist {{folder}}.',
      badChoice: 'Diese Angaben können nicht verwendet werden: {{detail}}.',
      badTiming:
        'Fragen Sie höchstens alle 5 Sekunden ab und warten Sie mindestens 100 ms, bis eine Datei fertig ist.',
      fileFailed: '{{name}} konnte nicht zertifiziert werden: {{why}}',
    },
    sets: {
      why: {
        cannotRead: 'sie kann nicht gelesen werden ({{code}})',
        doesNotExist: 'sie existiert nicht oder kann nicht gelesen werden',
        noFieldNames: 'die erste Zeile nennt die Felder nicht (þFeldþ, getrennt durch 0x14)',
        noSuchField: 'es gibt kein Feld namens {{field}} (die Felder sind {{fields}})',
        noPathField:
          'kein Feld enthält die Pfade der Dokumente (die Felder sind {{fields}}); nennen Sie es mit --path-field',
        noHashField:
          'kein Feld enthält einen Hash (MD5, SHA-1 oder SHA-256) (die Felder sind {{fields}}); nennen Sie es mit --hash-field',
        notWrapped: 'ein Feld ist nicht in þ…þ eingefasst',
        fieldCount: 'sie hat {{count}} Felder, wo die erste Zeile {{named}} nennt',
        emptyPath: 'ihr Pfad ist leer',
        notAHash: '{{field}} ist kein MD5, SHA-1 oder SHA-256 in Hex: {{value}}',
        noHash: 'sie hat keinen Hash',
        notARegister: 'es ist kein Register, das Evidence Desk lesen kann ({{detail}})',
        noColumn: 'das Register hat keine Spalte {{columns}}',
        notAnchored: '{{name}} ist {{state}}, nicht verankert: nicht mitgezählt',
        notASha256: 'sein SHA-256 ist keiner: {{value}}',
        notAKit: 'es ist kein Nachweispaket (es hat keinen Ordner certifications)',
        notAZip: 'es ist weder der Ordner eines Nachweispakets noch eine lesbare ZIP-Datei',
        notAFile:
          'es ist keine gewöhnliche Datei (eine Pipe, ein Socket oder ein Gerät): sie wurde nicht geöffnet',
        zipOverlapping:
          'zwei Dateien im Zip verweisen auf dieselben komprimierten Daten (Merkmal einer Zip-Bombe): das Zip wird abgelehnt',
        link: 'es ist ein Verweis (symbolischer Link), kein Beleg: er wurde nicht verfolgt',
        folder: 'es ist ein Ordner, kein Beleg',
        zipDamaged: 'das Zip ist beschädigt',
        notJson: 'es ist kein JSON',
        limit: 'abgelehnt: {{bound}}',
        receipt: {
          content_differs: 'Der Nachweis ist in sich nicht stimmig: Sein Inhalt ist nicht der, den er nennt',
          receipt_invalid: 'Der Nachweis ist in sich nicht stimmig',
          timestamp_invalid: 'Der Zeitstempel hält der Prüfung nicht stand',
          untrusted_key:
            'In sich stimmig, aber mit einem Protokollschlüssel signiert, dem Sie nicht vertrauen',
          not_anchored: 'Noch nicht prüfbar: die Zertifizierung war nicht verankert',
          untrusted_tsa:
            'In sich stimmig, aber der Zeitstempel stammt von einem Zeitstempeldienst, dem Sie nicht vertrauen',
          verified: 'Geprüft',
        },
      },
      noReportYet: 'Es gibt noch keinen Bericht zum Speichern: prüfen Sie zuerst einen Dokumentenbestand.',
      unreadableReference: 'Die Referenz kann nicht verwendet werden: {{where}}: {{why}}.',
      caseOnly: 'die Referenz schreibt den Namen als {{name}} (nur die Groß- und Kleinschreibung weicht ab)',
    },
    calls: {
      unknown: 'Diese Aktion gibt es nicht.',
      internal:
        'In Evidence Desk ist etwas schiefgegangen; die Einzelheiten stehen im Fehlerprotokoll der Anwendung.',
      invalidInput: 'Evidence Desk wurde etwas gefragt, das es nicht lesen kann: {{detail}}',
      notSavedHere: 'Evidence Desk zeigt nur Ordner von dem, was es selbst gespeichert hat.',
    },
  },
  cli: {
    usage:
      'Aufruf: evidence-desk <Befehl> [Optionen]\n\nBefehle:\n  certify PFAD... --event-type TYP --asset-type TYP [--source-system NAME] [--matter AKTE] [--again]\n                [--wait [--timeout S]]\n                        berechnet die Fingerabdrücke der Dateien (Ordner werden geöffnet) hier und\n                        reiht ihre Zertifizierung ein; die Akte (Aktenzeichen) bleibt auf diesem\n                        Computer; hier schon zertifizierter Inhalt wird genannt und übersprungen,\n                        außer mit --again\n  sync [--wait [--timeout S]]\n                        sendet, was wartet; mit --wait, bis jede Zertifizierung abgeschlossen ist\n                        (Fortschritt auf stderr; hört nach S Sekunden auf zu warten, Standard 600: Exit-Code 4)\n  status [--list] [--state STATUS] [--search TEXT] [--matter AKTE] [--limit N]\n                        Anzahl nach Status und nach Akte, Verbindung und auf Wunsch die Zeilen\n  verify DATEI [--receipt BELEG.json | --certificate ZERTIFIKAT.pdf] [--log-key FINGERABDRUCK|SCHLÜSSEL.pem]\n              [--tsa-root FINGERABDRUCK|WURZEL.pem]\n                        berechnet den Fingerabdruck der DATEI und prüft sie offline: gegen ihren Beleg\n                        oder ihr Zertifikat (ohne Warteschlange; vertrauenswürdiger Protokollschlüssel:\n                        --log-key oder der hier hinterlegte; vertrauenswürdiges Wurzelzertifikat:\n                        --tsa-root oder die der hier aufbewahrten Zeitstempel), sonst gegen ihre\n                        Zertifizierungen in dieser Warteschlange\n  verify PFAD... [--against KIT|REGISTER.csv|LADEDATEI.dat] [--report DATEI.pdf|DATEI.csv]\n              [--path-field NAME] [--hash-field NAME] [--log-key ...] [--tsa-root ...] [--trust-kit]\n                        prüft einen ganzen Bestand (Dateien und Ordner) gegen ein Nachweispaket\n                        (Ordner oder Zip), das Register (export --csv) oder eine Ladedatei; ohne\n                        --against gegen die Zertifizierungen dieses Computers. Exit-Code 0 nur, wenn\n                        alles aus der Referenz gefunden und geprüft ist; wurde nichts geprüft,\n                        gilt das als Fehler. Den Schlüsseln eines Nachweispakets wird nur mit\n                        --trust-kit (oder --log-key und --tsa-root) vertraut, nach dem Vergleich\n                        ihrer Fingerabdrücke mit denen des Dienstes\n  export --out ORDNER [--zip DATEI] [--state S] [--search TEXT] [--matter AKTE] [--ids 1,2,3] [--receipts-only]\n              [--unsealed]\n                        schreibt das Nachweispaket der gewählten Zertifizierungen: je einen Beleg und\n                        ein Zertifikat, das Register, verify.html, den Protokollschlüssel und eine README,\n                        als Ganzes versiegelt vom Zeitstempeldienst des Profils (--unsealed: nicht)\n  export --csv DATEI [--state S] [--search TEXT] [--matter AKTE] [--ids 1,2,3]\n                        schreibt das Register der Beweiskette für Excel (UTF-8-CSV): wer was wann\n                        zertifiziert hat, jeden Statuswechsel und jedes Entfernen\n  config [receipts-beside-files on|off]\n                        zeigt oder ändert eine Einstellung: ein Beleg neben jeder zertifizierten\n                        Datei, sobald sie verankert ist (aus, solange nicht gewählt)\n  profile show | use ID | test [ID] | trust-key FINGERABDRUCK\n  profile set --id ID --kind ART --base-url URL --token-url URL --client-id ID [--api-key SCHLÜSSEL] [--sign]\n              [--log-key FINGERABDRUCK|SCHLÜSSEL.pem] [--ca-file CA.pem]\n              [--tsa-url URL --tsa-ca WURZELN.pem [--tsa-policy OID] [--tsa-interval S]] [--use]\n                        Geheimnisse werden abgefragt (ohne Anzeige) oder zeilenweise aus einer Pipe\n                        gelesen; --tsa-url nennt den Zeitstempeldienst (RFC 3161), der die Zeit jedes\n                        Stapels bestätigt, --tsa-ca das oder die Wurzelzertifikate, zu denen er\n                        führen muss, --tsa-interval die kleinste Zahl Sekunden zwischen zwei\n                        Anfragen, die er verlangt. Öffentliche Dienste (nur Adressen; ihre Wurzeln\n                        erhalten Sie von ihnen): {{authorities}}\n  watch [add ORDNER --event-type TYP --asset-type TYP [--matter M] [--include MUSTER] [--no-subfolders]\n             [--receipts-beside] [--settle S] [--poll S | --events] | list | remove|pause|resume ORDNER]\n                        zertifiziert, was in einem Ordner ankommt, jede Datei, sobald sie sich nicht\n                        mehr ändert (S Sekunden, Standard 3); allein: überwacht im Vordergrund bis\n                        Strg+C; Netzwerkfreigaben werden alle 60 s abgefragt (--poll S: immer, alle S s)\n  renew [--dry-run] [--documents ORDNER]\n                        erneuert die fälligen Beweisdatensätze (RFC 4998): ein einziger Zeitstempel\n                        erneuert alle, bevor das Zertifikat ihres Zeitstempeldienstes abläuft (die App\n                        erledigt das täglich); --dry-run nennt, was fällig ist und warum. Sobald die IT\n                        SHA-256 ausmustert, werden Beweisdatensätze aus den Dokumenten selbst auf\n                        SHA-512 erneuert; die Dokumente werden dort gesucht, wo sie zertifiziert\n                        wurden, in überwachten Ordnern und in jedem --documents ORDNER. Exit-Code 3,\n                        solange eine Erneuerung aussteht oder nicht möglich ist\n  sandbox [...]         startet den lokalen Sandbox-Dienst (siehe: evidence-desk sandbox --help)\n\nOptionen für jeden Befehl:\n  --data-dir ORDNER     wo die Warteschlange liegt (Standard: der Datenordner der App; EVIDENCE_DESK_DATA_DIR)\n  --json                maschinenlesbare Ausgabe auf stdout (Sätze darin auf Englisch)\n\nNetzwerke: HTTPS_PROXY / HTTP_PROXY / NO_PROXY werden beachtet; Zertifikate werden gegen den\nSpeicher des Systems, NODE_EXTRA_CA_CERTS und die --ca-file des Profils geprüft.\n  -h, --help\n\nExit-Codes: 0 erledigt; 1 etwas ist fehlgeschlagen (eine Datei, eine Zertifizierung, eine Prüfung);\n2 falsche Argumente; 3 Warteschlange, Schlüsselbund oder Dienst nicht nutzbar; 4 Wartezeit überschritten.\n',
    runHelp: 'Mit evidence-desk --help sehen Sie den Aufruf.',
    stoppedUnfinished:
      'Der Befehl hat aufgehört, bevor er fertig war, ohne Ergebnis: Verlassen Sie sich nicht darauf. Das ist ein Fehler in Evidence Desk; bitte melden Sie ihn, mit seinem Protokoll.',
    files_one: '{{count, number}} Datei',
    files_other: '{{count, number}} Dateien',
    documents_one: '{{count, number}} Dokument',
    documents_other: '{{count, number}} Dokumente',
    certifications_one: '{{count, number}} Zertifizierung',
    certifications_other: '{{count, number}} Zertifizierungen',
    rootCertificates_one: '{{count, number}} Wurzelzertifikat',
    rootCertificates_other: '{{count, number}} Wurzelzertifikate',
    and: '{{first}} und {{second}}',
    or: 'oder',
    demo: 'DEMO — in einer Sandbox erstellt: echte Kryptografie, aber kein Beweiswert.',
    demoShort: ' (DEMO — kein Beweiswert)',
    environment: {
      embedded: 'Demo-Sandbox (in Evidence Desk eingebaut)',
      'service-sandbox': 'Sandbox des Dienstes',
      production: 'Produktivdienst',
      custom: 'Eigener Dienst',
    },
    state: STATE_WORDS,
    row: {
      failed: 'fehlgeschlagen: {{reason}}',
      noReason: 'kein Grund angegeben',
      pending: 'in Bearbeitung',
      pendingService: 'in Bearbeitung (der Dienst meldet „{{service}}“)',
      lastLook: '{{state}}; {{reason}}',
      verified: 'verankert, Nachweis geprüft',
      invalid: 'verankert, aber sein Nachweis hält der Prüfung NICHT STAND: {{reason}}',
      unverifiable: 'verankert, Nachweis hier nicht prüfbar: {{reason}}',
      timeConfirmed: '; Zeit bestätigt {{when}} durch {{authority}} (RFC 3161)',
      timeAsked: '; Zeit beim Zeitstempeldienst angefragt, noch ohne Antwort',
      timeNotYet: '; Zeit noch nicht bestätigt, wird später erneut angefragt: {{reason}}',
    },
    watch: {
      added:
        'Überwache {{path}} (Ordner {{id}}). Die App und `evidence-desk watch` übernehmen ihn in wenigen Sekunden.',
      removed: '{{path}} wird nicht mehr überwacht. Seine Zertifizierungen bleiben.',
      paused: '{{path}} pausiert (Ordner {{id}}).',
      resumed: '{{path}} wird wieder überwacht (Ordner {{id}}); was inzwischen ankam, wird nachgeholt.',
      none: 'Es werden keine Ordner überwacht. Einen hinzufügen: evidence-desk watch add ORDNER --event-type TYP --asset-type TYP',
      line: '{{id}}  {{path}}  [{{status}}]  Akte {{matter}}, {{eventType}} / {{assetType}}, Dateien {{include}} {{subfolders}}',
      status: {
        starting: 'startet',
        catching_up: 'holt nach',
        watching: 'überwacht {{how}}',
        paused: 'pausiert',
        unavailable: 'NICHT ÜBERWACHT',
      },
      byEvents: 'über Änderungsmeldungen',
      polledEvery: 'durch Abfrage alle {{seconds}} s',
      withSubfolders: 'mit Unterordnern',
      withoutSubfolders: 'ohne Unterordner',
      running_one: 'Überwache {{count, number}} Ordner; Strg-C beendet.',
      running_other: 'Überwache {{count, number}} Ordner; Strg-C beendet.',
      queued: '{{files}} aus {{path}} in die Warteschlange gestellt',
      stopping:
        'Überwachung beendet. Dateien, die noch nicht fertig waren, werden beim nächsten Start gefunden.',
    },
    certify: {
      skipped: 'übersprungen {{path}}: {{reason}}',
      already:
        'schon zertifiziert: {{path}} (als {{name}} am {{when}}, Zertifizierung {{id}}); --again zertifiziert sie noch einmal',
      queued: '{{files}} eingereiht',
      alreadyCount: '; {{files}} schon zertifiziert',
      problemCount_one: '; {{files}} konnte nicht zertifiziert werden',
      problemCount_other: '; {{files}} konnten nicht zertifiziert werden',
    },
    sets: {
      verdict: {
        verified: 'geprüft',
        untrusted: 'zertifiziert, Schlüssel noch nicht bestätigt',
        changed: 'geändert',
        renamed: 'umbenannt',
        not_certified: 'nicht zertifiziert',
        missing: 'fehlt',
        unreadable: 'nicht lesbar',
      },
      against: {
        kit: 'Abgeglichen mit dem Nachweispaket {{source}}',
        register: 'Abgeglichen mit dem Register {{source}}',
        'load-file': 'Abgeglichen mit der Ladedatei {{source}}',
        'this-computer': 'Abgeglichen mit den Zertifizierungen auf diesem Computer',
      },
      summary:
        '{{documents}}: {{verified}} geprüft{{untrusted}}, {{changed}} geändert, {{renamed}} umbenannt, {{not_certified}} nicht zertifiziert, {{unreadable}} nicht lesbar; {{missing}} aus der Referenz fehlen.',
      passed: 'BESTANDEN: alles aus der Referenz wurde gefunden und geprüft.',
      failed: 'NICHT BESTANDEN: siehe die Zeilen oben.',
      noDocuments:
        'NICHT BESTANDEN: Es wurde nichts geprüft, da im Dokumentenbestand keine Dokumente gefunden wurden.',
      emptyReference:
        'NICHT BESTANDEN: die Referenz enthält keine verwendbare Zertifizierung (siehe oben), daher konnte kein Dokument als zertifiziert gefunden werden.',
      untrusted:
        'NOCH NICHT BESTANDEN: {{count}} zertifiziert, aber mit einem Schlüssel signiert, dem Sie noch nicht vertrauen. Vergleichen Sie jeden Fingerabdruck unten mit dem vom Dienst veröffentlichten (beim Dienst selbst, nie beim Absender des Nachweispakets; Ihre IT-Abteilung hilft dabei):',
      untrustedCount: ', {{count}} zertifiziert mit einem Schlüssel, dem noch nicht vertraut wird',
      untrustedNext: 'Wenn sie übereinstimmen, führen Sie denselben Befehl erneut mit {{options}} aus.',
      trustedFromKit: 'Den Schlüsseln dieses Nachweispakets wird wie verlangt vertraut (--trust-kit):',
      logKey: '  Protokollschlüssel                        {{fingerprint}}',
      tsaRoot: '  Wurzelzertifikat des Zeitstempeldienstes  {{fingerprint}}',
      demo: 'DEMO: Zertifizierungen dieser Referenz wurden in einer Sandbox erstellt. Die Kryptografie ist echt, die Zertifizierungen haben aber keinen Beweiswert.',
      referenceProblem: 'In der Referenz, nicht verwendet: {{where}}: {{why}}',
      seal: {
        sealed:
          'Das Nachweispaket ist versiegelt: Alle {{files}} Dateien sind so, wie sie am {{when}} waren (RFC-3161-Zeitstempel von {{authority}}).',
        changed:
          'Das Nachweispaket wurde nach dem Versiegeln am {{when}} verändert (RFC-3161-Zeitstempel von {{authority}}): {{count}} seiner Dateien passen nicht mehr zum Siegel. Verlassen Sie sich nicht auf sie.',
        changedFile: '  seit dem Versiegeln verändert:   {{file}}',
        addedFile: '  seit dem Versiegeln hinzugefügt: {{file}}',
        removedFile: '  seit dem Versiegeln entfernt:    {{file}}',
        untrusted:
          'Das Nachweispaket ist von einem Zeitstempeldienst versiegelt, dem Sie nicht vertrauen ({{authority}}): Auf sein Siegel wurde nicht gebaut. Vergleichen Sie den Fingerabdruck seiner Wurzel (META-INF/timestamp-root.pem), {{fingerprint}}, mit dem, den der Dienst veröffentlicht; stimmen sie überein, vertrauen Sie den Schlüsseln des Pakets und prüfen Sie erneut.',
        broken:
          'Das Siegel des Nachweispakets hält nicht ({{why}}): Seine Dateien können seit dem Erstellen verändert worden sein. Verlassen Sie sich auf nichts darin außer auf die Belege, die sich jeweils selbst beweisen.',
        unsealed:
          'Das Nachweispaket ist nicht als Ganzes versiegelt: Nur seine Belege wurden geprüft, jeder für sich.',
        standing: 'Status des Zeitstempeldienstes beim Versiegeln: {{standing}}.',
      },
      signed: 'Zertifizierung {{id}}, signiert {{when}}',
      notSigned:
        'nach Inhalt gefunden; keine signierte Zeit (die Referenz ist nicht signiert, und dieser Computer hat keine Zertifizierung davon)',
      progress: '{{done}} von {{files}} gelesen ({{percent}})',
      listing: 'der Dokumentenbestand wird aufgelistet: bisher {{files}}',
      reportWritten: 'Der Bericht wurde in {{file}} geschrieben.',
    },
    hashing: {
      file: 'Fingerabdruck von {{name}}: {{percent}} ({{done}} von {{total}} MiB)',
      batch: 'Fingerabdrücke: {{done}} von {{files}} ({{percent}})',
    },
    wait: {
      line: 'warte auf Verankerung: {{counts}}',
      retry: ' — {{reason}}; nächster Versuch um {{when}}',
      unreachable: 'der Dienst ist nicht erreichbar',
    },
    status: {
      profile: 'Profil: {{id}} — {{label}}{{demo}}',
      matter: '  Akte {{matter}}: {{counts}}',
      connection: 'Verbindung: {{words}}',
      notChecked: 'nicht geprüft (status fragt den Dienst nicht; evidence-desk profile test tut es)',
      nextTry: '; nächster Versuch um {{when}}',
      lastCertified: 'zuletzt zertifiziert: {{when}}',
      lastAnchored: '; zuletzt verankert: {{when}}',
      keyChanged:
        'WARNUNG: der Protokollschlüssel des Dienstes hat sich geändert (jetzt {{fingerprint}}); Nachweise werden erst geprüft, wenn Sie ihn annehmen: evidence-desk profile trust-key FINGERABDRUCK',
      connectivity: {
        unknown: 'unbekannt',
        online: 'verbunden',
        offline: 'offline',
        auth_failed: 'Zugangsdaten abgelehnt',
        standby: 'wartet auf einen anderen Prozess',
        needs_setup: 'Einrichtung nötig',
        paused: 'angehalten',
      },
    },
    verify: {
      none: 'Keine Zertifizierung genau dieser Datei ist in der Warteschlange.',
      sameName:
        '  Eine Datei namens {{name}} wurde am {{when}} zertifiziert, aber ihr Inhalt hat sich seitdem geändert: dies ist nicht die zertifizierte Fassung.',
      check: '  {{state}}: {{words}}',
      signed: 'Signiert:',
    },
    export: {
      progress: '{{done}} von {{total}} Zertifikaten geschrieben',
      sealing: 'das Nachweispaket wird versiegelt: ein RFC-3161-Zeitstempel über die Liste seiner Dateien',
      sealingWaits:
        'das Nachweispaket wird versiegelt: Der Zeitstempeldienst lässt die nächste Anfrage erst um {{until}} zu; bis dahin wird gewartet',
      saved: 'Die Nachweise von {{certifications}} wurden in {{where}} gespeichert.',
      nothing: 'Nichts hat gepasst: das Nachweispaket enthält nur verify.html und seine README.',
      register:
        'Das Register von {{certifications}} wurde in {{file}} geschrieben, jedes ihrer Ereignisse in einer eigenen Zeile in {{events}}.',
    },
    renew: {
      noRecords:
        'Noch keine Beweisdatensätze: Der erste entsteht mit dem ersten Stapel, den diese Version mit einem Zeitstempel versieht.',
      nothingDue: 'Alle Beweisdatensätze sind gültig; die nächste Erneuerung ist am {{when}} fällig.',
      due_one: '{{count}} Beweisdatensatz (Dokumente: {{documents}}) muss erneuert werden:',
      due_other: '{{count}} Beweisdatensätze (Dokumente: {{documents}}) müssen erneuert werden:',
      dueRecord_one:
        '  {{count}} Dokument, Zeitstempel vom {{made}} durch {{authority}}: das Zertifikat des Zeitstempeldienstes läuft am {{until}} ab',
      dueRecord_other:
        '  {{count}} Dokumente, Zeitstempel vom {{made}} durch {{authority}}: das Zertifikat des Zeitstempeldienstes läuft am {{until}} ab',
      dueRecordRetired_one:
        '  {{count}} Dokument, Zeitstempel vom {{made}} durch {{authority}}: Er beruht auf {{weakness}}; das gilt nicht mehr als geeignet',
      dueRecordRetired_other:
        '  {{count}} Dokumente, Zeitstempel vom {{made}} durch {{authority}}: Er beruht auf {{weakness}}; das gilt nicht mehr als geeignet',
      dueRecordRetiredAgain_one:
        '  {{count}} Dokument, zuletzt erneuert am {{made}} durch {{authority}}: Auch diese Erneuerung beruht auf {{weakness}}; das gilt nicht mehr als geeignet; erneuern kann es nur ein Zeitstempeldienst, der stärker signiert',
      dueRecordRetiredAgain_other:
        '  {{count}} Dokumente, zuletzt erneuert am {{made}} durch {{authority}}: Auch diese Erneuerung beruht auf {{weakness}}; das gilt nicht mehr als geeignet; erneuern kann sie nur ein Zeitstempeldienst, der stärker signiert',
      needsStrongerAuthority_one:
        '{{count}} Beweisdatensatz kann mit dem Zeitstempeldienst dieses Profils nicht erneuert werden: Seine Erneuerungen beruhen auf nicht mehr Geeignetem. Wählen Sie einen Dienst, der mit stärkerem Schlüssel oder Hashverfahren signiert (evidence-desk profile set … --tsa-url URL --tsa-ca WURZELN.pem), und rufen Sie renew erneut auf.',
      needsStrongerAuthority_other:
        '{{count}} Beweisdatensätze können mit dem Zeitstempeldienst dieses Profils nicht erneuert werden: Ihre Erneuerungen beruhen auf nicht mehr Geeignetem. Wählen Sie einen Dienst, der mit stärkerem Schlüssel oder Hashverfahren signiert (evidence-desk profile set … --tsa-url URL --tsa-ca WURZELN.pem), und rufen Sie renew erneut auf.',
      weakKey: 'einem {{key}}-Schlüssel mit {{bits}} Bit',
      renewed_one:
        '{{count}} Beweisdatensatz (Dokumente: {{documents}}) mit einem Zeitstempel von {{authority}} am {{when}} erneuert.',
      renewed_other:
        '{{count}} Beweisdatensätze (Dokumente: {{documents}}) mit einem Zeitstempel von {{authority}} am {{when}} erneuert.',
      waits_one:
        'Die Erneuerung von {{count}} Beweisdatensatz wartet auf den Zeitstempeldienst: {{why}} Die App, sync oder watch fragt erneut an, sobald der Dienst es zulässt.',
      waits_other:
        'Die Erneuerung von {{count}} Beweisdatensätzen wartet auf den Zeitstempeldienst: {{why}} Die App, sync oder watch fragt erneut an, sobald der Dienst es zulässt.',
      notAskedYet: 'Er wurde noch nicht angefragt.',
      hashTreeDue_one:
        'Der Beweisdatensatz von {{count}} Dokument beruht auf SHA-256, das die IT ausgemustert hat: Er wird aus dem Dokument selbst auf SHA-512 erneuert (renew sucht es dort, wo es zertifiziert wurde, in überwachten Ordnern und in jedem --documents ORDNER).',
      hashTreeDue_other:
        'Die Beweisdatensätze von {{count}} Dokumenten beruhen auf SHA-256, das die IT ausgemustert hat; sie werden aus den Dokumenten selbst auf SHA-512 erneuert (renew sucht die Dokumente dort, wo sie zertifiziert wurden, in überwachten Ordnern und in jedem --documents ORDNER).',
      receiptRecords_one:
        '{{count}} Zertifizierung erhielt ihren Zeitstempel, bevor es Beweisdatensätze gab: Der zugehörige Beleg samt Zeitstempel und Prüfdaten erhält einen eigenen Beweisdatensatz (ein gemeinsamer Zeitstempel für alle):',
      receiptRecords_other:
        '{{count}} Zertifizierungen erhielten ihren Zeitstempel, bevor es Beweisdatensätze gab: Die zugehörigen Belege samt Zeitstempel und Prüfdaten erhalten eigene Beweisdatensätze (ein gemeinsamer Zeitstempel für alle):',
      hashTreeRenewing_one:
        '{{count}} Dokument wiedergefunden; sein Beweisdatensatz wird auf SHA-512 erneuert:',
      hashTreeRenewing_other:
        '{{count}} Dokumente wiedergefunden; ihre Beweisdatensätze werden auf SHA-512 erneuert:',
      missing_one:
        '{{count}} Dokument wurde nicht gefunden; sein Beweisdatensatz wird daher nicht auf SHA-512 erneuert (er bleibt, wie er ist). Rufen Sie renew erneut auf und geben Sie mit --documents ORDNER den Ordner an, in dem es liegt:',
      missing_other:
        '{{count}} Dokumente wurden nicht gefunden; ihre Beweisdatensätze werden daher nicht auf SHA-512 erneuert (sie bleiben, wie sie sind). Rufen Sie renew erneut auf und geben Sie mit --documents ORDNER den Ordner an, in dem sie liegen:',
      missingInMatter: '  Akte {{matter}}: {{names}}',
      missingNoMatter: '  Ohne Akte: {{names}}',
      andMore: '{{names}} und {{count}} weitere',
      noAuthority_one:
        '{{count}} Beweisdatensatz kann nicht erneuert werden: Das Profil nennt keinen Zeitstempeldienst. Wählen Sie einen: evidence-desk profile set … --tsa-url URL --tsa-ca WURZELN.pem',
      noAuthority_other:
        '{{count}} Beweisdatensätze können nicht erneuert werden: Das Profil nennt keinen Zeitstempeldienst. Wählen Sie einen: evidence-desk profile set … --tsa-url URL --tsa-ca WURZELN.pem',
    },
    config: {
      on: 'receipts-beside-files on: neben jede zertifizierte Datei wird ein Beleg geschrieben, sobald sie verankert ist',
      off: 'receipts-beside-files off: Belege werden nur auf Wunsch gespeichert (export)',
    },
    profile: {
      active: 'Aktives Profil: {{id}} — {{label}}{{demo}}',
      embedded:
        'Es läuft in Evidence Desk: nichts einzurichten. Sein DEMO-Zeitstempeldienst bestätigt die Zeit jedes Stapels. Einen Dienst wählen Sie mit: evidence-desk profile set …',
      secretSet: 'gesetzt (im Schlüsselbund des Systems)',
      secretNotSet: 'NICHT GESETZT',
      service: '  Dienst:         {{value}}',
      tokenAddress: '  Token-Adresse:  {{value}}',
      clientId: '  Client-ID:      {{value}}',
      clientSecret: '  Client-Geheimnis: {{value}}',
      apiKey: '  API-Schlüssel:  {{value}}; sein Geheimnis {{secret}}',
      signsYes: '  signiert Anfragen: ja; Signaturschlüssel {{secret}}',
      signsNo: '  signiert Anfragen: nein',
      logKey: '  Protokollschlüssel: {{value}}',
      pemKey: 'ein PEM-Schlüssel',
      caFile: '  CA-Datei:       {{value}}',
      timestamps: '  Zeitstempel:    {{url}} (RFC 3161), vertraut über {{roots}}{{policy}}',
      policy: ', Richtlinie {{oid}}',
      interval: ', höchstens eine Anfrage alle {{seconds}} s',
      noTimestamps:
        '  Zeitstempel:    keine: die Zeit beruht allein auf dem Dienst (profile set … --tsa-url URL --tsa-ca WURZELN.pem)',
      nowUsing: 'Jetzt wird das Profil {{id}} verwendet — {{label}}.',
      connected: 'Verbunden: ein Token wurde ausgestellt (gültig {{seconds}} s).',
      notConnected: 'Nicht verbunden: {{reason}}',
      saved: 'Profil {{id}} gespeichert; seine Geheimnisse liegen im Schlüsselbund des Systems.',
      activeIs: 'Das aktive Profil ist {{id}}.',
      activeIsNot:
        'Das aktive Profil ist {{id}} (um {{saved}} zu verwenden: evidence-desk profile use {{saved}} oder profile set … --use).',
      keyUnchanged: 'Der Protokollschlüssel hat sich nicht geändert: es gibt nichts anzunehmen.',
      keyChanged:
        'Der Protokollschlüssel des Dienstes hat sich von {{before}} zu {{after}} geändert. Vergleichen Sie den neuen Fingerabdruck mit dem vom Dienst veröffentlichten; wenn beide übereinstimmen, führen Sie aus: evidence-desk profile trust-key {{after}}',
      nowTrusting:
        'Dem Protokollschlüssel {{fingerprint}} wird jetzt vertraut; {{certifications}} erneut geprüft.',
    },
    usageErrors: {
      watch:
        'watch nimmt: nichts (Überwachung im Vordergrund), list, add ORDNER, remove ORDNER, pause ORDNER oder resume ORDNER.',
      watchSeconds: '--poll und --settle nehmen eine Anzahl Sekunden.',
      watchNeedsTypes: 'watch add braucht --event-type und --asset-type.',
      watchMethod: 'Wählen Sie --poll oder --events, nicht beides.',
      unknownCommand: 'Unbekannter Befehl „{{command}}“.',
      unknownOption: 'Die Option {{option}} gibt es nicht.',
      certifyNeedsPaths: 'certify braucht mindestens eine Datei oder einen Ordner.',
      certifyNeedsTypes: 'certify braucht --event-type und --asset-type.',
      verifyOneFile: 'verify braucht Dateien oder Ordner; mit --receipt oder --certificate genau eine Datei.',
      exportNeedsTarget: 'export braucht --out ORDNER, --zip DATEI oder --csv DATEI.',
      receiptOrCertificate: 'verify nimmt --receipt oder --certificate, nicht beides.',
      ids: '--ids nimmt ganze Zahlen, durch Kommas getrennt.',
      timeout: '--timeout nimmt eine Anzahl Sekunden über 0.',
      state: '--state nimmt einen von {{states}}.',
      limit: '--limit nimmt eine ganze Zahl über 0.',
      config: 'config nimmt: receipts-beside-files on|off',
      profileUse: 'profile use braucht eine Profil-ID (oder „embedded“).',
      profileActions: 'profile nimmt show, use ID, test [ID], set oder trust-key FINGERABDRUCK.',
      tsaWithoutUrl: '--tsa-ca, --tsa-policy und --tsa-interval gehören zu --tsa-url.',
      tsaNeedsRoots:
        '--tsa-url braucht --tsa-ca: das oder die Wurzelzertifikate, die der Zeitstempeldienst veröffentlicht, als PEM-Datei, damit seinen Zeitstempeln vertraut werden kann.',
      unreadableFile: '{{flag}} {{path}}: diese Datei kann nicht gelesen werden.',
      noCertificate:
        '--ca-file {{path}}: diese Datei enthält kein PEM-Zertifikat (-----BEGIN CERTIFICATE-----).',
      logKey:
        '--log-key nimmt den SHA-256-Fingerabdruck eines Schlüssels oder eine PEM-Datei mit öffentlichem Schlüssel; {{value}} ist keines von beiden.',
      tsaRoot:
        '--tsa-root nimmt den SHA-256-Fingerabdruck eines Wurzelzertifikats oder eine PEM-Zertifikatsdatei; {{value}} ist keines von beiden.',
    },
  },
  shell: {
    menu: {
      file: 'Ablage',
      addFiles: 'Dateien hinzufügen…',
      addFolder: 'Ordner hinzufügen…',
      verifyFile: 'Eine Datei prüfen…',
      settings: 'Einstellungen…',
      checkForUpdates: 'Nach Updates suchen…',
      updatesManaged: 'Updates verwaltet Ihre IT-Abteilung',
      edit: 'Bearbeiten',
      view: 'Darstellung',
      window: 'Fenster',
      help: 'Hilfe',
      userGuide: 'Hilfe zu Evidence Desk',
      othersCheck: 'Wie andere Nachweise prüfen',
      keyboard: 'Tastaturbefehle',
      helpPage: 'de.html',
    },
    tray: {
      watching_one: '{{count}} Ordner überwacht',
      watching_other: '{{count}} Ordner überwacht',
      notWatching_one: '{{count}} überwachter Ordner wird nicht überwacht',
      notWatching_other: '{{count}} überwachte Ordner werden nicht überwacht',
      tooltipIdle: 'Evidence Desk',
      tooltipWaiting_one: 'Evidence Desk — {{count}} Zertifizierung wartet',
      tooltipWaiting_other: 'Evidence Desk — {{count}} Zertifizierungen warten',
      tooltipPaused: 'Evidence Desk — Senden pausiert',
      open: 'Evidence Desk öffnen',
      syncNow: 'Jetzt senden',
      pause: 'Senden pausieren',
      resume: 'Senden fortsetzen',
      quit: 'Evidence Desk beenden',
    },
    title: {
      waiting_one: 'Evidence Desk — {{count}} wartet',
      waiting_other: 'Evidence Desk — {{count}} warten',
    },
    quit: {
      question_one: '{{count}} Zertifizierung ist noch nicht verankert.',
      question_other: '{{count}} Zertifizierungen sind noch nicht verankert.',
      detail:
        'Wenn Sie beenden, warten sie sicher auf diesem Computer und werden beim nächsten Start von Evidence Desk gesendet. Um sie jetzt abzuschließen, lassen Sie Evidence Desk laufen: Es arbeitet im Infobereich weiter.',
      quitAnyway: 'Trotzdem beenden',
      keepRunning: 'Weiterlaufen lassen',
    },
    stillRunning: {
      title: 'Evidence Desk arbeitet noch',
      body: 'Es sendet im Hintergrund weiter. Öffnen Sie es wieder über den Infobereich.',
    },
    notify: {
      failedTitle: 'Eine Zertifizierung ist fehlgeschlagen',
      failedBody: '{{name}}: {{reason}}',
      failedNoReason: 'den Grund zeigt Evidence Desk',
      updateReadyTitle: 'Ein Update ist bereit',
      updateReadyBody:
        'Evidence Desk {{version}} wird beim Beenden installiert, nachdem alles gerade Gesendete sicher gespeichert ist.',
      anchoredTitle: 'Zertifizierungen verankert',
      anchored_one: '{{count}} Zertifizierung ist verankert und prüfbar.',
      anchored_other: '{{count}} Zertifizierungen sind verankert und prüfbar.',
    },
    dialogs: {
      watchFolder: 'Ordner zum Überwachen wählen',
      watchHere: 'Diesen Ordner überwachen',
      documentsFolder: 'Ordner mit den Dokumenten wählen',
      lookHere: 'In diesem Ordner suchen',
      saveKit: 'Nachweispaket speichern in…',
      saveHere: 'Hier speichern',
      exportRegister: 'Register exportieren',
      export: 'Exportieren',
      saveReport: 'Prüfbericht speichern',
      pdfFilter: 'Bericht (PDF)',
      csvReportFilter: 'Bericht für Excel (CSV)',
      csvFilter: 'Register für Excel (CSV)',
      saveCertificate: 'Zertifikat speichern',
      save: 'Speichern',
      certificateFilter: 'Zertifikat (PDF)',
      cannotStart: 'Evidence Desk kann nicht starten',
    },
  },
};
