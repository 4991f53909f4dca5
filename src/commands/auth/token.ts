import { defineCommand } from '../../core/define.js';
import { NotLoggedInError } from '../../errors.js';

export const token = defineCommand({
  name: 'token',
  summary: 'Print the token in force (the only command that prints it)',
  exitCodes: '0 printed, 4 no token',
  examples: ['curl -H "Authorization: Bearer $(sitebuilder auth token)" …'],
  jsonFields: '{ token, source }',
  async run(_opts, ctx) {
    const { token, source } = ctx.token();
    if (!token)
      throw new NotLoggedInError(`No token for profile "${ctx.profileName()}". Run \`sitebuilder auth login\`.`);
    if (ctx.globals.json) ctx.io.printJson({ token, source });
    else ctx.io.outLine(token);
  },
});
