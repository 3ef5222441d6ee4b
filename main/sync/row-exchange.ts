import type { CertificationReading } from '../service/response-reader';
import type { ServiceClient } from '../service/service-client';
import type { CertificationRow, QueueSending } from '../store';
import type { EvidenceCheck } from '../../protocol/views';
import type { PolicyContext } from './outcome-policy';
import { decidePoll, decideSubmit, settlementOf } from './outcome-policy';

export interface RowExchangeDeps {
  queue: QueueSending;
  client: Pick<ServiceClient, 'createCertification' | 'readCertification'>;
  verifyEvidence(row: CertificationRow, evidence: unknown): Promise<EvidenceCheck>;
  now(): number;
  /** Still allowed to write: the engine runs and holds the lease. Asked after every answer. */
  mayProceed(): boolean;
  /** Aborted when the lease goes: what is on the wire is withdrawn. */
  signal(): AbortSignal;
  /** What an answer means for the service's reachability, and the policy's inputs. */
  policyContext(result: Parameters<typeof decideSubmit>[0]): PolicyContext;
}

/**
 * One row's exchange with the service: sent, or its status read, and the answer written to the
 * queue as the outcome policy decides. The engine decides when and which rows.
 */
export class RowExchange {
  constructor(private readonly deps: RowExchangeDeps) {}

  /** `claimNext`: run in the commit that writes an accepted answer (to claim the lane's next row). */
  async submit(row: CertificationRow, claimNext?: () => void): Promise<void> {
    const { queue } = this.deps;
    const result = await this.deps.client.createCertification(
      {
        asset_hash: row.assetHash,
        asset_type: row.assetType,
        source_system: row.sourceSystem,
        event_type: row.eventType,
      },
      row.requestId,
      this.deps.signal(),
    );
    // The lease went while this was on the wire: whoever holds it now sends this row again.
    if (!this.deps.mayProceed()) return;
    const decision = decideSubmit(result, row.attempts, this.deps.policyContext(result));
    const now = this.deps.now();
    if (result.ok) {
      const nextPollAt = decision.kind === 'accepted' ? decision.nextPollAt : now;
      const settleNow = decision.kind === 'accepted' && decision.settleNow;
      queue.inOneCommit(() => {
        queue.markPending(
          row.id,
          {
            serviceId: result.value.serviceId,
            serviceState: result.value.serviceState,
            rawResponse: result.raw,
            nextPollAt,
          },
          now,
        );
        // Not while this row's evidence is still to be checked: the next would wait, claimed, off the wire.
        if (!settleNow) claimNext?.();
      });
      if (settleNow) await this.settle(row.id, result.value, result.raw);
    } else if (decision.kind === 'requeue') {
      queue.requeue(row.id, result, decision.at, now, decision.countsAsAttempt);
    } else {
      queue.markFailed(row.id, result, result.raw ?? null, now);
    }
  }

  async poll(row: CertificationRow): Promise<void> {
    const { queue } = this.deps;
    const result = await this.deps.client.readCertification(row.serviceId as string, this.deps.signal());
    if (!this.deps.mayProceed()) return;
    const decision = decidePoll(result, row.attempts, this.deps.policyContext(result));
    const now = this.deps.now();
    switch (decision.kind) {
      case 'settle':
        if (result.ok) await this.settle(row.id, result.value, result.raw);
        return;
      case 'look-again':
        queue.recordPoll(
          row.id,
          {
            serviceState: decision.serviceState,
            rawResponse: decision.rawResponse,
            nextPollAt: decision.at,
            problem: decision.problem,
          },
          now,
        );
        return;
      case 'fail':
        queue.markFailed(row.id, decision.error, result.ok ? null : (result.raw ?? null), now);
    }
  }

  private async settle(id: number, reading: CertificationReading, raw: string): Promise<void> {
    const { queue } = this.deps;
    const settlement = settlementOf(reading);
    if (settlement.kind === 'failed') {
      queue.markFailed(id, settlement.error, raw, this.deps.now(), reading.serviceState);
      return;
    }
    const check = await this.deps.verifyEvidence(queue.get(id) as CertificationRow, reading.evidence);
    if (!this.deps.mayProceed()) return;
    queue.markAnchored(
      id,
      {
        serviceState: reading.serviceState ?? 'anchored',
        rawResponse: raw,
        evidence:
          reading.evidence === null || reading.evidence === undefined
            ? null
            : JSON.stringify(reading.evidence),
        verification: check.verification,
        verificationMessage: check.message,
      },
      this.deps.now(),
    );
  }
}
