/** A real PNG of `width` × `height`, drawn by the browser (a file the service accepts and an <img> decodes). Browser tests only. */
export async function canvasPng(width: number, height: number): Promise<Blob> {
  const canvas = document.createElement('canvas');
  canvas.width = width;
  canvas.height = height;
  const context = canvas.getContext('2d')!;
  context.fillStyle = '#3366cc';
  context.fillRect(0, 0, width, height);
  return new Promise((resolve) => canvas.toBlob((blob) => resolve(blob!), 'image/png'));
}
