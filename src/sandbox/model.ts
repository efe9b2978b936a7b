// The records the sandbox keeps, one a row of its resource's table (stored as JSON beside the columns it is found by).

export interface InboxCategoryRecord {
  key: string;
  name: string;
  isDefault: boolean;
  /** As the listing serves it: "1" Positive, "2" Negative, "3" Neutral. */
  sentiment: '1' | '2' | '3';
}

export interface FieldRecord {
  id: string;
  label: string;
  fieldType: 'text' | 'number' | 'date' | 'long-text' | 'dropdown' | 'currency';
  isSystem: boolean;
  fallbackText?: string;
  tags: string[];
}

export interface StepVariantRecord {
  id: string;
  payload: Record<string, unknown>;
  taskNote: string | null;
  status: number;
  type: number;
  executionType: number;
  stepStatus: number;
}

export interface StepRecord {
  id: string;
  name: string;
  number: number;
  type: number;
  variants: StepVariantRecord[];
}

export interface SubsequenceRecord {
  id: string;
  title: string;
  scheduleId: number;
  firstStepRelativeDays: number;
  conditions: Array<{ conditionId: string; name: string; operation: string; value?: number | boolean }>;
}

export interface SequenceRecord {
  id: string;
  name: string;
  active: boolean;
  steps: StepRecord[];
  subsequences: SubsequenceRecord[];
  emailAccountIds: string[];
}

export interface ProspectMembership {
  sequenceId: string;
  stepId: string;
  /** active: still being sent to; finished: done with the sequence. */
  state: 'active' | 'finished';
}

export interface ProspectRecord {
  id: string;
  email: string;
  /** Values by field id. */
  values: Record<string, string>;
  status: 'active' | 'bounced' | 'unsubscribed';
  ownerId: string;
  tags: string[];
  verificationStatus: 'valid' | 'pending' | 'skip' | 'inProgress' | 'risky' | 'bad';
  sequences: ProspectMembership[];
}

/** A long-text attribute record of a prospect. */
export interface AttributeRecord {
  attributeId: string;
  prospectId: string;
  fieldRefId: string;
  attributeValue: string;
}

export interface AccountRecord {
  ownerId: string;
  firstName: string;
  lastName: string;
  email: string;
}

/** What the account keeps besides its records: the account, the id counter, and when the seed was laid down. */
export interface AccountMeta {
  account: AccountRecord;
  /** Source of record ids. */
  counter: number;
  /** Clock ms when the seed was laid down. */
  seededAt: number;
  /** Clock ms of each enrichment start within the last day, for the rate-limit windows. */
  enrichmentStarts: number[];
}

export interface TaskRecord {
  taskId: string;
  type: 'linkedin' | 'call' | 'whatsapp' | 'custom';
  title: string;
  /** Only completed and skipped are stored; upcoming, dueToday and overdue follow from dueDate and the clock. */
  doneStatus?: 'completed' | 'skipped';
  dueDate: string;
  completedAt?: string;
  skippedAt?: string;
  /** When a snooze ends (the task is due again then). */
  snoozedUntil?: string;
  taskAssignee: { id: string; firstName: string; lastName: string; email: string };
  note: string;
  priority: 'urgent' | 'high' | 'medium' | 'low';
  sequence: { id: string; name: string; stepId: string; stepNumber: number; prospectOutcome: string };
  callOutcome?: string;
}

export interface DncItemRecord {
  id: string;
  listId: string;
  value: string;
  type: 'email' | 'domain';
  createdAt: string;
  addedBy: string;
  /** Its place in its list (1 for the first added), so a page is a range, not a scan past every item before it.
   * Missing on items an older outreach added: numbered when their list is next read. */
  pos?: number;
}

export interface DncListRecord {
  id: string;
  name: string;
  createdAt: string;
  updatedAt: string;
  addedBy: string;
  ownerId: string;
}

export interface MailboxRecord {
  email: string;
  firstname: string;
  lastname: string;
  profilePicId: number;
}

export interface DomainRecord {
  id: string;
  name: string;
  status: 'inProgress' | 'active' | 'deleted' | 'failed' | 'expired';
  emailServiceProvider: string;
  createdAt: string;
  /** When an inProgress domain becomes active (clock ms). */
  activatesAt?: number;
  mailboxes: MailboxRecord[];
}

export interface TimeSlotRecord {
  day: number;
  slots: Array<{ start: { hour: number; minute: number }; end: { hour: number; minute: number } }>;
}

export interface ScheduleRecord {
  id: number;
  name: string;
  timezone: string;
  timeSlots: TimeSlotRecord[];
  isDefault: boolean;
  createdAt: string;
}

export interface WebhookRecord {
  id: string;
  name: string;
  webhookUrl: string;
  webhookEvent: string[];
  headers: Record<string, string>;
  status: string;
  failed: boolean;
  lastFailure?: { failedAt: number; statusCode: number; message: string };
  createdAt: string;
}

export interface ImportJobRecord {
  requestId: string;
  createdAt: number;
  /** Clock ms at which the job reports isCompleted. */
  completesAt: number;
  total: number;
  /** id of the failed-rows report in `reports`, if any row failed. */
  reportId?: string;
  failedCount: number;
}

export interface BulkActionRecord {
  bulkActionId: string;
  action: string;
  createdAt: number;
  completesAt: number;
  totalTasks: number;
  failed: number;
  reportId?: string;
}

export interface ReportRecord {
  id: string;
  csv: string;
}

/** One person of an enrichment job, decided when the job starts and revealed as the job gets to it. */
export interface EnrichedEntry {
  /** How the caller named the person, and the value as given. */
  by: 'lead_id' | 'linkedin_url' | 'full_name_with_company';
  value: string;
  personId?: number;
  outcome: 'revealed' | 'already_revealed' | 'not_found';
  email?: string;
  phone?: string;
  credits: number;
}

export interface EnrichmentRecord {
  requestId: string;
  createdAt: number;
  /** Clock ms when every person is processed; they are processed evenly until then. */
  completesAt: number;
  emailType: 'work_email' | 'personal_email';
  revealPhone: boolean;
  people: EnrichedEntry[];
}

export interface EnrichmentLimits {
  perMinute: number;
  perHour: number;
  perDay: number;
}

export const defaultEnrichmentLimits: EnrichmentLimits = { perMinute: 30, perHour: 1_000, perDay: 10_000 };
export const defaultSearchDisplayLimit = 2_500;

/** Someone revealed before, by `personId:emailType`: a second enrichment counts them as alreadyRevealed, free. */
export interface RevealedRecord {
  key: string;
}
