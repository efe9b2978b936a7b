// `npm run docs` renders the reference from here (scripts/docs.mjs bundles it): the command groups, handed to the
// renderer from above it (cli/ imports nothing from commands/).
import { renderDocs } from '../cli/docs-render.js';
import { groups } from './manifest.js';

export const renderReference = (version: string) => renderDocs(groups, version);
