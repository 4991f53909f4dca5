'use strict';
// The floor of an API command: one POST with bare node:http to the service (the emulator), the
// answer read whole and printed. What `sitebuilder site list --workspace <id>` does, with none of
// the CLI around it (no arguments, config, context, validation or table). CommonJS, as the CLI's
// chunks are: an ES module would start Node's ES module loader and make the floor slower.
// Usage: SITEBUILDER_BASE_URL=… SITEBUILDER_TOKEN=… node bench/http-floor.cjs <workspace id>
const http = require('node:http');

const body = JSON.stringify({ workspaceId: process.argv[2] });
const request = http.request(
  new URL('/v1/list_sites', process.env.SITEBUILDER_BASE_URL),
  {
    method: 'POST',
    headers: {
      authorization: `Bearer ${process.env.SITEBUILDER_TOKEN}`,
      'content-type': 'application/json',
      'content-length': Buffer.byteLength(body),
    },
  },
  (response) => {
    const chunks = [];
    response.on('data', (chunk) => chunks.push(chunk));
    response.on('end', () => {
      process.stdout.write(Buffer.concat(chunks));
      if (response.statusCode !== 200) process.exitCode = 1;
    });
  },
);
request.on('error', (err) => {
  process.stderr.write(`${err.message}\n`);
  process.exitCode = 1;
});
request.end(body);
