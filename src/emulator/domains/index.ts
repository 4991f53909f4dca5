// The domains of the emulator, one line each. A method of the registry that no domain handles
// answers 501 "not emulated yet".
import { codeHostingDomain } from './code-hosting/domain.js';
import { storageFilesDomain } from './storage-files/domain.js';
import type { Domain } from '../types.js';
import { analyticsDomain } from './analytics/domain.js';
import { automationDomain } from './automation/domain.js';
import { chatDomain } from './chat/domain.js';
import { collectionsDomain } from './collections/domain.js';
import { emailDomain } from './email/domain.js';
import { emailListsDomain } from './email-lists/domain.js';
import { listsDomain } from './lists/domain.js';
import { publishDomain } from './publish/domain.js';
import { sitesDomain } from './sites/domain.js';
import { siteBackupsDomain } from './site-backups/domain.js';
import { codeBackupsDomain } from './code-backups/domain.js';
import { storageBackupsDomain } from './storage-backups/domain.js';

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
