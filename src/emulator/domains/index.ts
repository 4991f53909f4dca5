// The domains of the emulator, one line each. A method of the registry that no domain handles
// answers 501 "not emulated yet".
import { codeHostingDomain } from '../code-hosting.js';
import { storageFilesDomain } from '../storage.js';
import type { Domain } from '../types.js';
import { chatDomain } from './chat.js';
import { emailDomain } from './email.js';
import { publishDomain } from './publish.js';
import { sitesDomain } from './sites.js';
import { siteBackupsDomain } from './site-backups.js';
import { codeBackupsDomain } from './code-backups.js';
import { storageBackupsDomain } from './storage-backups.js';

export const DOMAINS: Domain<any>[] = [
  sitesDomain,
  chatDomain,
  emailDomain,
  storageBackupsDomain,
  siteBackupsDomain,
  codeBackupsDomain,
  publishDomain,
  codeHostingDomain,
  storageFilesDomain,
];
