// The upload noun has one verb: `upload <site> <file…>`.
export { uploadCommand as upload } from './upload.js';
