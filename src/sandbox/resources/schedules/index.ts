// Sending schedules: created with at least one window a day they cover; ids are integers, as in the real service.
import { schedulesEndpoints } from '../../../api/contract/schedules.js';
import { checkSchedule, WindowError } from '../../../schedule/week.js';
import { defineTable } from '../../db/table.js';
import { defineResource } from '../../resource.js';
import { routesOf } from '../../route.js';
import { SandboxError } from '../../sandbox-error.js';
import { seedTable } from '../../seed-data.js';
import type { ScheduleRecord } from '../../model.js';

export const schedulesTable = defineTable<ScheduleRecord>({ name: 'schedules', id: (s) => s.id });

export const schedulesResource = defineResource({
  tables: [schedulesTable],
  routes: routesOf(schedulesEndpoints, {
    create: (req, store) => {
      const body = req.body;
      try {
        checkSchedule(body);
      } catch (error) {
        if (error instanceof WindowError) throw new SandboxError(400, 4000, error.message);
        throw error;
      }
      const table = store.table(schedulesTable);
      // Schedule ids are integers in the real service (subsequences refer to them as numbers).
      const id = Number(table.aggregate('MAX(CAST(id AS INTEGER))') ?? 0) + 1;
      if (body.isDefault)
        for (const schedule of table.select('1')) if (schedule.isDefault) table.put({ ...schedule, isDefault: false });
      const record = {
        id,
        name: body.name,
        timezone: body.timezone,
        timeSlots: body.timeSlots,
        isDefault: Boolean(body.isDefault),
        createdAt: store.isoNow(),
      };
      table.put(record);
      return { status: 201, body: { message: 'Schedule created successfully', payload: record } };
    },
    list: (_req, store) => ({
      status: 200,
      body: { message: 'Schedules fetched successfully', payload: store.table(schedulesTable).all() },
    }),
  }),
  seed: seedTable(schedulesTable, 'schedules'),
});
