import { defineCommand } from '../../core/define.js';
import { login } from './login.js';
import { logout } from './logout.js';
import { status } from './status.js';
import { token } from './token.js';

export const auth = defineCommand({
  name: 'auth',
  summary: 'Log in, check the token in force, log out',
  learnMore: 'docs/guide.md#authentication-and-profiles',
  subcommands: [login, status, token, logout],
});
