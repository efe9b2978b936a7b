import { sequencesEndpoints } from '../../api/contract/sequences.js';
import { route, type Route } from '../route.js';
import { SandboxError } from '../sandbox-error.js';
import type { Store } from '../store.js';
import type { SequenceRecord } from '../model.js';

function findSequence(store: Store, id: string): SequenceRecord {
  const sequence = store.state.sequences.find((s) => s.id === id);
  if (!sequence) throw new SandboxError(400, 1001, `Invalid sequence id ${id}`);
  return sequence;
}

export const sequencesRoutes: Route[] = [
  route(sequencesEndpoints.step, (req, store) => {
    const step = findSequence(store, req.params.sequenceId).steps.find((s) => s.id === req.params.stepId);
    if (!step) throw new SandboxError(400, 1001, `Invalid step id ${req.params.stepId}`);
    return { status: 200, body: step.variants };
  }),

  route(sequencesEndpoints.updateSubsequence, (req, store) => {
    const sequence = findSequence(store, req.params.sequenceId);
    const sub = sequence.subsequences.find((s) => s.id === req.params.subsequenceId);
    if (!sub) throw new SandboxError(400, 1001, `Invalid subsequence id ${req.params.subsequenceId}`);
    const body = req.body;
    if (body.scheduleId !== undefined && !store.state.schedules.some((s) => s.id === body.scheduleId))
      throw new SandboxError(400, 4000, `Schedule ${body.scheduleId} not found`);
    if (body.scheduleId !== undefined) sub.scheduleId = body.scheduleId;
    if (body.firstStepRelativeDays !== undefined) sub.firstStepRelativeDays = body.firstStepRelativeDays;
    // A non-empty set replaces the conditions; an empty one is silently ignored (spec.md).
    if (body.conditions?.length)
      sub.conditions = body.conditions.map((c) => ({ ...c, conditionId: c.conditionId ?? store.id() }));
    return { status: 200, body: { message: 'Subsequence updated successfully' } };
  }),

  route(sequencesEndpoints.subsequenceSettings, (req, store) => {
    for (const sequence of store.state.sequences) {
      const sub = sequence.subsequences.find((s) => s.id === req.params.subsequenceId);
      if (sub)
        return {
          status: 200,
          body: { message: 'Subsequence settings fetched', payload: { ...sub, sequenceId: sequence.id } },
        };
    }
    throw new SandboxError(400, 1001, `Invalid subsequence id ${req.params.subsequenceId}`);
  }),

  route(sequencesEndpoints.addContacts, (req, store) => {
    const sequence = findSequence(store, req.params.sequenceId);
    const { stepId, contactIds } = req.body;
    if (!sequence.steps.some((s) => s.id === stepId))
      throw new SandboxError(400, 4000, `Step ${stepId} is not a step of sequence ${sequence.id}`);
    const unknown = contactIds.filter((id) => !store.prospects.byId(id));
    if (unknown.length) throw new SandboxError(400, 4000, `Contacts not found: ${unknown.join(', ')}`);
    const payload = contactIds.map((id) => {
      const prospect = store.prospects.byId(id)!;
      if (!prospect.sequences.some((m) => m.sequenceId === sequence.id))
        prospect.sequences.push({ sequenceId: sequence.id, stepId, state: 'active' });
      return {
        id: store.prospects.contactNumber(prospect),
        email: prospect.email,
        isSubscribed: prospect.status !== 'unsubscribed',
        createdAt: store.isoNow(),
      };
    });
    return { status: 200, body: { message: 'Contacts added to the sequence', payload } };
  }),

  route(sequencesEndpoints.status, (req, store) => {
    const { sequenceIds, status } = req.body;
    let success = 0;
    let failed = 0;
    for (const id of sequenceIds) {
      const sequence = store.state.sequences.find((s) => s.id === id);
      // Unknown, already paused (pause) or already active (resume) count as failed.
      if (!sequence || sequence.active === (status === 'resume')) failed++;
      else {
        sequence.active = status === 'resume';
        success++;
        if (status === 'pause')
          store.emitEvent('sequence-paused', { sequence: { id: sequence.id, name: sequence.name } });
      }
    }
    return {
      status: 201,
      body: { message: `Sequences ${status === 'pause' ? 'paused' : 'resumed'}`, payload: { success, failed } },
    };
  }),

  route(sequencesEndpoints.testEmail, (req, store) => {
    const sequence = findSequence(store, req.params.sequenceId);
    const { fromEmailAccountId } = req.body;
    if (!sequence.emailAccountIds.includes(fromEmailAccountId))
      throw new SandboxError(
        400,
        1001,
        `Email account ${fromEmailAccountId} is not connected to sequence ${sequence.id}`,
      );
    return { status: 200, body: { message: 'Test email sent successfully' } };
  }),
];
