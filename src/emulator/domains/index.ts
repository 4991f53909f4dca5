// The domains of the emulator, one line each. A method of the registry that no domain handles
// answers 501 "not emulated yet".
import { codeHostingDomain } from '../code-hosting.js';
import { storageFilesDomain } from '../storage.js';
import type { Domain } from '../types.js';
import { analyticsDomain } from './analytics.js';
import { automationDomain } from './automation.js';
import { chatDomain } from './chat.js';
import { collectionsDomain } from './collections.js';
import { emailDomain } from './email.js';
import { emailListsDomain } from './email-lists.js';
import { listsDomain } from './lists.js';
import { publishDomain } from './publish.js';
import { sitesDomain } from './sites.js';
import { siteBackupsDomain } from './site-backups.js';
import { codeBackupsDomain } from './code-backups.js';
import { storageBackupsDomain } from './storage-backups.js';

export const DOMAINS: Domain[] = [
  sitesDomain,
  chatDomain,
  emailDomain,
  emailListsDomain,
  automationDomain,
  collectionsDomain,
  analyticsDomain,
  listsDomain,
  storageBackupsDomain,
  siteBackupsDomain,
  codeBackupsDomain,
  publishDomain,
  codeHostingDomain,
  storageFilesDomain,
];
