import { schedulesEndpoints } from '../../api/contract/schedules.js';
import { route, type Route } from '../route.js';
import { SandboxError } from '../sandbox-error.js';
import { checkSchedule, WindowError } from '../../schedule/week.js';

export const schedulesRoutes: Route[] = [
  route(schedulesEndpoints.create, (req, store) => {
    const body = req.body;
    try {
      checkSchedule(body);
    } catch (error) {
      if (error instanceof WindowError) throw new SandboxError(400, 4000, error.message);
      throw error;
    }
    // Schedule ids are integers in the real service (subsequences refer to them as numbers).
    const id = Math.max(0, ...store.state.schedules.map((s) => s.id)) + 1;
    if (body.isDefault) for (const schedule of store.state.schedules) schedule.isDefault = false;
    const record = {
      id,
      name: body.name,
      timezone: body.timezone,
      timeSlots: body.timeSlots,
      isDefault: Boolean(body.isDefault),
      createdAt: store.isoNow(),
    };
    store.state.schedules.push(record);
    return { status: 201, body: { message: 'Schedule created successfully', payload: record } };
  }),
  route(schedulesEndpoints.list, (_req, store) => ({
    status: 200,
    body: { message: 'Schedules fetched successfully', payload: store.state.schedules },
  })),
];
