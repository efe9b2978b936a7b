// What one check of one domain found: pass, a warning (worth changing, not failing), or a failure, and what to do.

export interface Finding {
  /** DNS: the domain was not checked (the server stopped answering), or does not exist. */
  check: 'MX' | 'SPF' | 'DMARC' | 'DKIM' | 'DNS';
  status: 'pass' | 'warn' | 'fail';
  detail: string;
  /** The record to publish or the change to make, when it is not a pass. */
  fix?: string;
  /** The record as published, when there is one. */
  record?: string;
}
