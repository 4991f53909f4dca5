// The size limit of upload_storage_file. The service documents none; the only bound it gives is
// the 150 MB body, and a file travels base64-encoded (4/3 of its size) inside the JSON body, so
// 100 MiB is the largest round size that always fits. The emulator refuses larger files with
// 413 and the CLI refuses them before sending anything.
export const UPLOAD_MAX_BYTES = 100 * 1024 * 1024;

/** Longest storage name (folder and file name together). */
export const UPLOAD_NAME_MAX = 255;

const TYPES: Record<string, string> = {
  html: 'text/html',
  htm: 'text/html',
  css: 'text/css',
  js: 'text/javascript',
  mjs: 'text/javascript',
  json: 'application/json',
  txt: 'text/plain',
  md: 'text/markdown',
  csv: 'text/csv',
  xml: 'application/xml',
  svg: 'image/svg+xml',
  png: 'image/png',
  jpg: 'image/jpeg',
  jpeg: 'image/jpeg',
  gif: 'image/gif',
  webp: 'image/webp',
  avif: 'image/avif',
  ico: 'image/x-icon',
  pdf: 'application/pdf',
  zip: 'application/zip',
  mp4: 'video/mp4',
  webm: 'video/webm',
  mp3: 'audio/mpeg',
  wav: 'audio/wav',
  woff: 'font/woff',
  woff2: 'font/woff2',
  ttf: 'font/ttf',
  otf: 'font/otf',
};

/** A content type from the file name's extension; application/octet-stream when unknown. */
export function contentTypeFor(name: string): string {
  const ext = /\.([a-z0-9]+)$/i.exec(name)?.[1]?.toLowerCase();
  return (ext && TYPES[ext]) || 'application/octet-stream';
}
