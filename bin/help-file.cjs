'use strict';
// Where the build puts a command's --help text, and where bin/ reads it: dist/help/site.list.txt,
// dist/help/_root.txt for the program itself. Command words are [a-z0-9-], so names cannot clash.
// bin/sitebuilder.js writes the same rule inline (test/e2e/binary.test.ts checks that it reads these).
exports.helpFileName = (path) => `${path ? path.split(' ').join('.') : '_root'}.txt`;
