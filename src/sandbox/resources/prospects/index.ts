// Prospects: imports (by field name, asynchronous with a failed-rows report; by field id, answered row by row), their
// status, verification status, and long-text attributes.
import { prospectsEndpoints } from '../../../api/contract/prospects.js';
import { defineResource } from '../../resource.js';
import { routesOf } from '../../route.js';
import { SandboxError, badRequest } from '../../sandbox-error.js';
import { seedData } from '../../seed-data.js';
import type { AttributeRecord, ProspectRecord } from '../../model.js';
import { allFields } from '../fields/index.js';
import { createImportContext, importOne } from './import-rows.js';
import { checkStep, importByName } from './import-by-name.js';
import { attributesTable, importsTable, prospectsTable } from './tables.js';

const routes = routesOf(prospectsEndpoints, {
  importByName: (req, store) => importByName(req.body, store),

  importById: (req, store) => {
    const body = req.body;
    checkStep(store, body.stepId);
    const ctx = createImportContext(store, {
      conflictAction: body.conflictAction,
      stepId: body.stepId,
      verify: body.verifyProspects,
    });
    const payload = body.prospectList.map((prospect) => {
      const values: Record<string, string> = {};
      for (const { id, value } of prospect.fields) {
        if (!ctx.fieldsById.has(id)) throw badRequest(`Unknown field id ${id}`);
        values[id] = value;
      }
      const { email, status } = importOne(ctx, values);
      return { email, status };
    });
    return { status: 201, body: { message: 'Prospects imported', payload } };
  },

  importStatus: (req, store) => {
    const job = store.table(importsTable).get(req.params.requestId);
    if (!job) throw new SandboxError(400, 40000, `Import request ${req.params.requestId} not found`);
    const isCompleted = store.now() >= job.completesAt;
    const payload: Record<string, unknown> = { isCompleted };
    if (isCompleted && job.reportId) payload.failedProspectsURL = `${req.origin}/files/reports/${job.reportId}.csv`;
    return { status: 200, body: { message: isCompleted ? 'Import completed' : 'Import in progress', payload } };
  },

  verificationStatus: (req, store) => {
    const { emails } = req.body;
    const payload = emails.map((email) => {
      const prospect = store.table(prospectsTable).first('email_key = ?', email.trim().toLowerCase());
      if (prospect) return { email, verificationStatus: prospect.verificationStatus };
      return { email, verificationStatus: /^[^\s@]+@[^\s@]+\.[^\s@]+$/.test(email.trim()) ? 'skip' : 'bad' };
    });
    return { status: 200, body: { message: 'Verification status fetched', payload } };
  },

  getAttribute: (req, store) => {
    const { attributeId, prospectId } = req.query;
    const found = store.table(attributesTable).get(attributeId);
    if (found && (!prospectId || found.prospectId === prospectId)) {
      const record = {
        attributeId: found.attributeId,
        prospectId: found.prospectId,
        fieldRefId: found.fieldRefId,
        attributeValue: found.attributeValue,
      };
      return {
        status: 200,
        body: { message: 'Attribute fetched', payload: { message: 'Attribute fetched', payload: record } },
      };
    }
    throw new SandboxError(
      400,
      50001,
      `Failed to fetch attribute ${attributeId}${prospectId ? ` of prospect ${prospectId}` : ''}`,
    );
  },

  setAttributes: (req, store) => {
    const prospects = store.table(prospectsTable);
    const prospect = prospects.get(req.params.prospectId);
    if (!prospect) throw badRequest(`Prospect ${req.params.prospectId} not found`);
    const body = req.body;
    // With `attributes`, fieldId and attributeValue are ignored (spec.md).
    const items =
      'attributes' in body ? body.attributes : [{ fieldId: body.fieldId, attributeValue: body.attributeValue }];
    const custom = new Set(
      allFields(store)
        .filter((f) => !f.isSystem)
        .map((f) => f.id),
    );
    const attributes = store.table(attributesTable);
    const results = items.map(({ fieldId, attributeValue }) => {
      if (!custom.has(fieldId)) return { fieldId, success: false };
      prospect.values[fieldId] = attributeValue;
      const existing = attributes.first('prospect_id = ? AND field_id = ?', prospect.id, fieldId);
      const attributeId = existing?.attributeId ?? store.id();
      attributes.put({ attributeId, prospectId: prospect.id, fieldRefId: fieldId, attributeValue });
      return { fieldId, success: true };
    });
    prospects.put(prospect);
    return { status: 201, body: { message: 'Attributes updated', payload: { results } } };
  },
});

type SeedProspect = ProspectRecord & { attributes: Array<Omit<AttributeRecord, 'prospectId'>> };

export const prospectsResource = defineResource({
  tables: [prospectsTable, attributesTable, importsTable],
  routes,
  seed(store) {
    const prospects = store.table(prospectsTable);
    const attributes = store.table(attributesTable);
    for (const { attributes: own, ...prospect } of seedData<SeedProspect[]>('prospects')) {
      prospects.put(prospect);
      for (const attribute of own) attributes.put({ ...attribute, prospectId: prospect.id });
    }
  },
});
