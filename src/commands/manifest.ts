// The command groups, handed to the CLI by the entry point (cli/ imports nothing from commands/). Only the group a
// command line names is loaded, so start-up stays light.
import type { GroupEntry } from '../cli/verb.js';

export const groups: GroupEntry[] = [
  {
    name: 'auth',
    summary: 'Store, check and remove the API key',
    example: 'auth login',
    load: () => import('./auth/index.js'),
  },
  {
    name: 'profiles',
    summary: 'Switch between accounts and environments',
    example: 'profiles list',
    load: () => import('./profiles/index.js'),
  },
  {
    name: 'prospects',
    summary: 'Import prospect CSVs of any size, check imports, verify emails, set attributes',
    example: 'prospects import leads.csv',
    load: () => import('./prospects/index.js'),
  },
  {
    name: 'fields',
    summary: 'List prospect fields and update custom ones',
    example: 'fields list --system',
    load: () => import('./fields/index.js'),
  },
  {
    name: 'tasks',
    summary: 'List, complete, snooze and bulk-skip or bulk-snooze call, LinkedIn, WhatsApp and custom tasks',
    example: 'tasks bulk-skip --where-status overdue --yes',
    load: () => import('./tasks/index.js'),
  },
  {
    name: 'dnc',
    summary: 'Do-not-contact lists: stream uploads, sync from other tools, show, search, export',
    example: 'dnc add dncGlobal1 --file optouts.csv',
    load: () => import('./dnc/index.js'),
  },
  {
    name: 'people',
    summary: 'Search people to reach: 30 filters, every page streamed as CSV or NDJSON',
    example: "people search --title 'Head of Sales' --location Germany --csv",
    load: () => import('./people/index.js'),
  },
  {
    name: 'enrich',
    summary: 'Reveal emails and phones of people found, paced by the rate limits, ready to import',
    example: 'enrich contacts --file leads.csv --wait --csv',
    load: () => import('./enrich/index.js'),
  },
  {
    name: 'schedules',
    summary: 'Build sending schedules interactively or from flags, and list them',
    example: 'schedules create',
    load: () => import('./schedules/index.js'),
  },
  {
    name: 'sequences',
    summary: 'Steps, subsequences, contacts, pause/resume and test emails of sequences',
    example: 'sequences pause sqOnbrd1',
    load: () => import('./sequences/index.js'),
  },
  {
    name: 'inbox',
    summary: 'Inbox reply categories',
    example: 'inbox categories',
    load: () => import('./inbox/index.js'),
  },
  {
    name: 'webhooks',
    summary: 'Create, list and inspect webhooks; receive them locally while you build a handler',
    example: "webhooks listen --create --name dev --event 'task-*' --public-url https://abc.ngrok.app/",
    load: () => import('./webhooks/index.js'),
  },
  {
    name: 'api',
    summary: 'Call any endpoint directly, with auth, retries and output handled',
    example: 'api GET /v1/fields',
    load: () => import('./api/index.js'),
  },
  {
    name: 'sandbox',
    summary: 'Run a local emulator of the whole API',
    example: 'sandbox start --port 0',
    load: () => import('./sandbox/index.js'),
  },
  {
    name: 'domains',
    summary: 'Sending domains and mailboxes: check DNS (SPF, DKIM, DMARC), watch provisioning, delete, revoke',
    example: 'domains list',
    load: () => import('./domains/index.js'),
  },
  {
    name: 'attachments',
    summary: 'Upload attachments for email steps and notes',
    example: 'attachments upload brochure.pdf',
    load: () => import('./attachments/index.js'),
  },
  {
    name: 'mcp',
    summary: 'Serve every command to agents as MCP tools, with previews before anything destructive',
    example: 'mcp --sandbox',
    load: () => import('./mcp/index.js'),
  },
  {
    name: 'doctor',
    summary: 'Check this setup: Node, config, settings and their sources, the service, the key, the clock',
    example: 'doctor',
    load: () => import('./doctor/index.js'),
  },
  {
    name: 'version',
    summary: 'Print the version of outreach and of the Node.js it runs on',
    example: 'version',
    load: () => import('./version/index.js'),
  },
  {
    name: 'completion',
    summary: 'Shell completion for bash, zsh and fish',
    example: 'completion bash > ~/.local/share/bash-completion/completions/outreach',
    load: () => import('./completion/index.js'),
  },
];
