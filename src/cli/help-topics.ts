// The help topics beside the commands: `outreach help environment`, `outreach help formats`, `outreach help exit-codes`.
import { exitCodeTable } from './exit-codes.js';

export const environmentHelp = `Environment variables:
  OUTREACH_API_KEY      API key; overrides the profile's stored key
  OUTREACH_BASE_URL     API base URL; overrides the profile's (flag --base-url wins)
  OUTREACH_PROFILE      profile to use (flag -p/--profile wins)
  OUTREACH_CONFIG_DIR   config folder (default $XDG_CONFIG_HOME/outreach, else ~/.config/outreach); the --sandbox
                        state lives in its sandbox/ folder
  OUTREACH_DEBUG=1      same as --debug
  XDG_CONFIG_HOME       where the config folder goes when OUTREACH_CONFIG_DIR is not set
  NO_COLOR              no colour in tables (also --no-color; TERM=dumb too)
  CI                    never prompt (as --no-input)
  TZ                    the time zone that local times are shown in (schedule previews, rate-limit resets)
  NODE_EXTRA_CA_CERTS   a CA certificate file to trust as well: a company proxy that signs TLS itself
Precedence: flag > environment > profile. \`outreach doctor\` shows where each setting of this run comes from.
`;

export const formatsHelp = `Output formats:
  table     on a terminal (stdout is a TTY): columns fitted to its width, long values cut with "…", ids and
            names whole; --wide shows every value whole. For reading, not parsing.
  TSV       when stdout is piped: one line a row, no header, tab-separated, every value whole (tabs and line
            breaks inside a value become spaces): outreach tasks list | cut -f1
  --csv     CSV with a header row (RFC 4180). Cells starting with = + - @ tab or CR get a leading ' so a
            spreadsheet does not run them as formulas; --csv-raw writes them as they are.
  --json    one JSON document: a list as an array, a record as an object, as the service sent it (fields
            this tool does not know pass through).
  --ndjson  one JSON object a line, written as pages arrive: for lists of any length.
  --jq EXPR filters the JSON output with a jq expression, like gh's --jq: strings print raw, other
            values as JSON, one a line. Implies --json. No jq needs to be installed:
            outreach tasks list --all --jq '.[] | select(.type == "call") | .taskId'

Data goes to stdout, everything else (progress, hints, warnings) to stderr, so a pipe gets only data.
Under --json, --ndjson, --csv and --quiet nothing but errors reaches stderr.
`;

export function exitCodesHelp(): string {
  return `Exit codes:\n${exitCodeTable.map(([code, text]) => `  ${String(code).padEnd(4)} ${text}`).join('\n')}\n`;
}

export const helpTopics: Record<string, () => string> = {
  environment: () => environmentHelp,
  formats: () => formatsHelp,
  'exit-codes': exitCodesHelp,
};
