// Sequences: their steps and subsequences (one record each, as the seed lays them down), pausing and resuming,
// adding contacts to a step, test emails.
import { sequencesEndpoints } from '../../../api/contract/sequences.js';
import { counterOf } from '../../ids.js';
import { defineResource } from '../../resource.js';
import { routesOf } from '../../route.js';
import { SandboxError } from '../../sandbox-error.js';
import { seedTable } from '../../seed-data.js';
import type { SequenceRecord } from '../../model.js';
import type { Store } from '../../store.js';
import { prospectsTable } from '../prospects/tables.js';
import { schedulesTable } from '../schedules/index.js';
import { importByName } from '../prospects/import-by-name.js';
import { sequencesTable } from './table.js';

function findSequence(store: Store, id: string): SequenceRecord {
  const sequence = store.table(sequencesTable).get(id);
  if (!sequence) throw new SandboxError(400, 1001, `Invalid sequence id ${id}`);
  return sequence;
}

export const sequencesResource = defineResource({
  tables: [sequencesTable],
  routes: routesOf(sequencesEndpoints, {
    importProspects: (req, store) => importByName(req.body, store),

    step: (req, store) => {
      const step = findSequence(store, req.params.sequenceId).steps.find((s) => s.id === req.params.stepId);
      if (!step) throw new SandboxError(400, 1001, `Invalid step id ${req.params.stepId}`);
      return { status: 200, body: step.variants };
    },

    updateSubsequence: (req, store) => {
      const sequence = findSequence(store, req.params.sequenceId);
      const sub = sequence.subsequences.find((s) => s.id === req.params.subsequenceId);
      if (!sub) throw new SandboxError(400, 1001, `Invalid subsequence id ${req.params.subsequenceId}`);
      const body = req.body;
      if (body.scheduleId !== undefined && !store.table(schedulesTable).get(body.scheduleId))
        throw new SandboxError(400, 4000, `Schedule ${body.scheduleId} not found`);
      if (body.scheduleId !== undefined) sub.scheduleId = body.scheduleId;
      if (body.firstStepRelativeDays !== undefined) sub.firstStepRelativeDays = body.firstStepRelativeDays;
      // A non-empty set replaces the conditions; an empty one is silently ignored (spec.md).
      if (body.conditions?.length)
        sub.conditions = body.conditions.map((c) => ({ ...c, conditionId: c.conditionId ?? store.id() }));
      store.table(sequencesTable).put(sequence);
      return { status: 200, body: { message: 'Subsequence updated successfully' } };
    },

    subsequenceSettings: (req, store) => {
      for (const sequence of store.table(sequencesTable).all()) {
        const sub = sequence.subsequences.find((s) => s.id === req.params.subsequenceId);
        if (sub)
          return {
            status: 200,
            body: { message: 'Subsequence settings fetched', payload: { ...sub, sequenceId: sequence.id } },
          };
      }
      throw new SandboxError(400, 1001, `Invalid subsequence id ${req.params.subsequenceId}`);
    },

    addContacts: (req, store) => {
      const sequence = findSequence(store, req.params.sequenceId);
      const { stepId, contactIds } = req.body;
      if (!sequence.steps.some((s) => s.id === stepId))
        throw new SandboxError(400, 4000, `Step ${stepId} is not a step of sequence ${sequence.id}`);
      const prospects = store.table(prospectsTable);
      const found = contactIds.map((id) => prospects.get(id));
      const unknown = contactIds.filter((_, i) => !found[i]);
      if (unknown.length) throw new SandboxError(400, 4000, `Contacts not found: ${unknown.join(', ')}`);
      const payload = found.map((prospect) => {
        if (!prospect!.sequences.some((m) => m.sequenceId === sequence.id)) {
          prospect!.sequences.push({ sequenceId: sequence.id, stepId, state: 'active' });
          prospects.put(prospect!);
        }
        return {
          // A number for the contact, stable across runs: its id's counter, or its place among the seed's prospects.
          id: counterOf(prospect!.id) ?? prospects.seq(prospect!.id),
          email: prospect!.email,
          isSubscribed: prospect!.status !== 'unsubscribed',
          createdAt: store.isoNow(),
        };
      });
      return { status: 200, body: { message: 'Contacts added to the sequence', payload } };
    },

    status: (req, store) => {
      const { sequenceIds, status } = req.body;
      const table = store.table(sequencesTable);
      let success = 0;
      let failed = 0;
      for (const id of sequenceIds) {
        const sequence = table.get(id);
        // Unknown, already paused (pause) or already active (resume) count as failed.
        if (!sequence || sequence.active === (status === 'resume')) failed++;
        else {
          sequence.active = status === 'resume';
          table.put(sequence);
          success++;
          if (status === 'pause')
            store.emitEvent('sequence-paused', { sequence: { id: sequence.id, name: sequence.name } });
        }
      }
      return {
        status: 201,
        body: { message: `Sequences ${status === 'pause' ? 'paused' : 'resumed'}`, payload: { success, failed } },
      };
    },

    testEmail: (req, store) => {
      const sequence = findSequence(store, req.params.sequenceId);
      const { fromEmailAccountId } = req.body;
      if (!sequence.emailAccountIds.includes(fromEmailAccountId))
        throw new SandboxError(
          400,
          1001,
          `Email account ${fromEmailAccountId} is not connected to sequence ${sequence.id}`,
        );
      return { status: 200, body: { message: 'Test email sent successfully' } };
    },
  }),
  seed: seedTable(sequencesTable, 'sequences'),
});
