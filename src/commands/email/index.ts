import { defineCommand } from '../../core/define.js';
import { domains } from './domains.js';
import { restart } from './restart.js';

export const email = defineCommand({
  name: 'email',
  summary: 'Email domains of a site: their status, DNS records, and restarting verification',
  learnMore: 'docs/guide.md#email-domains',
  subcommands: [domains, restart],
});
