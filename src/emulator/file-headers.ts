// The headers of what the emulator serves that others wrote: uploaded files and published sites
// (docs/emulator.md "Security"). They are served from the emulator's own origin, where the
// control API lives, so nothing in them may run as that origin: `Content-Security-Policy:
// sandbox` gives a page an opaque origin of its own (its requests carry `Origin: null`, which the
// emulator refuses), `nosniff` stops a browser from reading a file as another type, and an
// uploaded file a browser would render as a document (HTML, XHTML, SVG, XML, or an unknown
// type) is offered as a download instead.

/** Types a browser shows inline without running anything in them. */
const INLINE =
  /^(?:image\/(?:png|jpeg|gif|webp|avif|bmp|x-icon|vnd\.microsoft\.icon)|text\/(?:plain|css|csv)|application\/(?:json|pdf)|audio\/[\w.+-]+|video\/[\w.+-]+|font\/[\w.+-]+)$/;

/** An uploaded file: sandboxed, never sniffed, and a download unless it is a passive type. */
export function uploadedFileHeaders(contentType: string, path: string): Record<string, string> {
  const type = contentType.split(';')[0].trim().toLowerCase();
  const name = path.split('/').pop() ?? 'file';
  return {
    'content-security-policy': 'sandbox',
    'x-content-type-options': 'nosniff',
    ...(INLINE.test(type) ? {} : { 'content-disposition': `attachment; filename*=UTF-8''${encodeURIComponent(name)}` }),
  };
}

/** A page of a published site: shown in a browser, but sandboxed (its scripts, if any, run in an opaque origin). */
export function publishedPageHeaders(): Record<string, string> {
  return {
    'content-security-policy': 'sandbox allow-scripts allow-forms allow-popups',
    'x-content-type-options': 'nosniff',
  };
}
