// Report files (failed import rows, bulk-action failures): named by 128 random bits, served at /files/reports/ID.csv.
import { defineTable } from '../../db/table.js';
import { unguessableId } from '../../ids.js';
import { defineResource } from '../../resource.js';
import type { ReportRecord } from '../../model.js';
import type { Store } from '../../store.js';

export const reportsTable = defineTable<ReportRecord>({ name: 'reports', id: (r) => r.id });

/** Keeps a report; returns its id. */
export function addReport(store: Store, csv: string): string {
  const id = unguessableId();
  store.table(reportsTable).put({ id, csv });
  return id;
}

export const reportsResource = defineResource({ tables: [reportsTable] });
