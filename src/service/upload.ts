// upload_storage_file "answers with its permanent address, which can be named in a prompt"; where
// the address sits in the answer is not shown. It is read as a whole http(s) address under the
// obvious names, at the top of the answer or one level down (taken there only when every match
// agrees); anything else is unread, and the CLI prints nothing in its place.
import { field, readField, type Read, resource } from './read.js';
import { ADDRESS_PATHS } from './sites.js';
import { asWebAddress } from './values.js';

/** An address is looked for under the same names as a live site's, and those of a file. */
const ADDRESS = [...ADDRESS_PATHS, 'fileUrl', 'permanentUrl'];

export const UPLOAD_ADDRESS = field('the file’s address', [...ADDRESS, ...ADDRESS.map((n) => `*.${n}`)], asWebAddress);

export const UPLOAD_ANSWER = resource('upload_storage_file answer', 'upload_storage_file data', {
  address: UPLOAD_ADDRESS,
});

/** The uploaded file's permanent address, or unread (with where it was looked for). */
export function readUploadAddress(data: unknown): Read<string> {
  return readField(data, UPLOAD_ADDRESS);
}
