// The content type a file of an archive is served with, from its name's extension: a ZIP entry
// carries none, and files are served with `nosniff`, so an image must be named as one.
const BY_EXTENSION = new Map(
  Object.entries({
  avif: 'image/avif',
  bmp: 'image/bmp',
  gif: 'image/gif',
  ico: 'image/x-icon',
  jpeg: 'image/jpeg',
  jpg: 'image/jpeg',
  png: 'image/png',
  svg: 'image/svg+xml',
  webp: 'image/webp',
  mp3: 'audio/mpeg',
  ogg: 'audio/ogg',
  wav: 'audio/wav',
  flac: 'audio/flac',
  mp4: 'video/mp4',
  webm: 'video/webm',
  mov: 'video/quicktime',
  glb: 'model/gltf-binary',
  gltf: 'model/gltf+json',
  json: 'application/json',
  pdf: 'application/pdf',
  txt: 'text/plain',
  csv: 'text/csv',
  html: 'text/html',
  htm: 'text/html',
  css: 'text/css',
  js: 'text/javascript'
  })
);

export const DEFAULT_MEDIA_TYPE = 'application/octet-stream';

export function mediaTypeOf(name: string): string {
  const dot = name.lastIndexOf('.');
  return (dot > 0 && BY_EXTENSION.get(name.slice(dot + 1).toLowerCase())) || DEFAULT_MEDIA_TYPE;
}
