/** What the browser tests read off a page's canvas. */
import type { Page } from 'playwright-core';

/** The variance of the canvas' pixel brightness: a blank canvas has none. */
export function canvasVariance(page: Page): Promise<number> {
  return page.evaluate(() => {
    const canvas = document.querySelector('canvas') as HTMLCanvasElement;
    const copy = document.createElement('canvas');
    copy.width = canvas.width;
    copy.height = canvas.height;
    const context = copy.getContext('2d') as CanvasRenderingContext2D;
    context.drawImage(canvas, 0, 0);
    const data = context.getImageData(0, 0, copy.width, copy.height).data;
    let sum = 0;
    let sumSq = 0;
    for (let i = 0; i < data.length; i += 4) {
      const v = data[i] + data[i + 1] + data[i + 2];
      sum += v;
      sumSq += v * v;
    }
    const n = data.length / 4;
    return sumSq / n - (sum / n) ** 2;
  });
}
