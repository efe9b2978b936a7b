// The help topics beside the commands: `outreach help environment`, `outreach help formats`, `outreach help exit-codes`.
import { exitCodeTable } from './exit-codes.js';

export const environmentHelp = `Environment variables:
  OUTREACH_API_KEY      API key; overrides the profile's stored key
  OUTREACH_BASE_URL     API base URL; overrides the profile's (--base-url wins)
  OUTREACH_PROFILE      profile to use (-p/--profile wins)
  OUTREACH_CONFIG_DIR   config folder (default $XDG_CONFIG_HOME/outreach, else
                        ~/.config/outreach); --sandbox keeps its state in its
                        sandbox/ folder
  OUTREACH_SANDBOX_KEY  the key \`sandbox start\` accepts (--key wins; else a
                        random one), kept out of the process list
  OUTREACH_DEBUG=1      same as --debug
  OUTREACH_RESOLVER     the DNS server \`domains check\` asks, as HOST:PORT
                        (--resolver wins; else the system resolver)
  XDG_CONFIG_HOME       where the config folder goes without OUTREACH_CONFIG_DIR
  NO_COLOR              no colour in tables (also --no-color, TERM=dumb)
  CI                    never prompt (as --no-input)
  TZ                    the time zone local times are shown in
  NODE_EXTRA_CA_CERTS   a CA certificate file to trust as well (a company proxy
                        that signs TLS itself)
Precedence: flag > environment > profile. \`outreach doctor\` shows where each
setting of a run comes from.
`;

export const formatsHelp = `Output formats:
  table     on a terminal: columns fitted to its width, long values cut
            with "…", ids, names and short columns whole; --wide shows every
            value whole. Drawn a thousand rows at a time as they come (the
            first thousand set the columns). For reading, not for parsing.
  TSV       when stdout is piped: a line a row, no header, tab-separated,
            every value whole (tabs and line breaks inside become spaces):
            outreach tasks list | cut -f1
  --csv     CSV with a header row. Cells starting with = + - @ tab or CR get
            a leading ' so a spreadsheet does not run them as formulas;
            --csv-raw writes them as they are.
  --json    one JSON document: a list as an array, a record as an object,
            as the service sent it (fields unknown to this tool pass through).
  --ndjson  one JSON object a line, written as pages arrive. A job's summary
            (an import, a sync) is one object: on one line here, indented
            under --json; --csv has no rows to give for it, so its outcome
            line goes to stderr.
  --jq EXPR filters the JSON output with jq (built in, jq 1.8) and prints what
            \`| jq -r EXPR\` would: strings raw, other values as JSON. Implies
            --json; not with --csv or --ndjson. A bad EXPR exits 2 before
            anything is sent:
            outreach tasks list --jq '.[] | select(.type == "call") | .taskId'

Data goes to stdout; progress, hints and warnings go to stderr, so a pipe gets
only data. Under --json, --ndjson and --csv, stderr keeps only warnings, waits
worth knowing about and errors; under --quiet, only errors.
`;

export const securityHelp = `What outreach trusts, and what it checks:
  Your key   goes only to the base URL it was stored for, in the x-api-key
             header; never in argv, output, logs or errors (masked as ***
             on stdout too). --base-url or OUTREACH_BASE_URL elsewhere needs
             OUTREACH_API_KEY or a profile of that URL (else exit 4).
             Plain http only to this machine. Config: folder 0700, files
             0600; a folder or config.json others can write, or a link, is
             refused.
  Journals   are read back only when they are your own regular file that
             no one else can write, written for the same service, account
             (a keyed hash of the key) and input; a mismatch says what
             differs. A journal never names where to write: output files
             are named after it. A resumed bulk skip asks again (or needs
             --yes). One run holds a journal at a time (a lock names it).
  Files      the tool writes are created new (O_EXCL, no link followed),
             0600, and renamed into place.
  Answers    held in memory stop at 64 MiB, report downloads at 512 MB
             (exit 1). Failed-row reports are streamed; only your file's
             rows are kept. Report links: https, or http to this machine.
  Terminal   on a terminal, control characters from the service, a
             teammate or a delivery are shown as JSON writes them (\\u001b),
             never obeyed; piped CSV and JSON stay exact.
  --jq       is compiled before anything is sent; it runs in a worker that
             Ctrl-C and SIGTERM stop (exit 130).
  api -f     keys __proto__, constructor and prototype are refused.
  Sandbox    checks the key before reading a body, cuts bodies slower than
             60 s, serves reports only with the key under random names;
             \`sandbox start\` takes its key from OUTREACH_SANDBOX_KEY or
             stdin (--key -) so it stays out of the process list.
  webhooks   listen compares the secret header in constant time, forwards
             without hop-by-hop headers, shows a repeated eventId as a
             replay (not forwarded twice), and warns when it listens beyond
             this machine without --expect-header.
`;

export function exitCodesHelp(): string {
  return `Exit codes:\n${exitCodeTable.map(([code, text]) => `  ${String(code).padEnd(4)} ${text}`).join('\n')}\n`;
}

export const helpTopics: Record<string, () => string> = {
  environment: () => environmentHelp,
  formats: () => formatsHelp,
  'exit-codes': exitCodesHelp,
  security: () => securityHelp,
};
