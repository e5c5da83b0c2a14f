/** WCAG 2.2 contrast (success criteria 1.4.3 and 1.4.11) for a page's accent colour. */

/** Text and its background need 4.5:1 at level AA. */
export const AA_TEXT_CONTRAST = 4.5;

const channel = (value: number) => {
  const c = value / 255;
  return c <= 0.04045 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4;
};

const rgb = (hex: string) => [1, 3, 5].map((at) => parseInt(hex.slice(at, at + 2), 16));

/** Relative luminance of `#rrggbb`. */
export function luminance(hex: string): number {
  const [r, g, b] = rgb(hex).map(channel) as [number, number, number];
  return 0.2126 * r + 0.7152 * g + 0.0722 * b;
}

export function contrastRatio(a: string, b: string): number {
  const [light, dark] = [luminance(a), luminance(b)].sort((x, y) => y - x) as [number, number];
  return (light + 0.05) / (dark + 0.05);
}

const toHex = (values: number[]) =>
  `#${values.map((v) => Math.round(v).toString(16).padStart(2, '0')).join('')}`;

/**
 * The same hue darkened just enough for white text on it (and it on white) to reach AA:
 * what we suggest when a colour is refused.
 */
export function darkenedToContrast(hex: string, ratio = AA_TEXT_CONTRAST): string {
  const base = rgb(hex);
  for (let step = 0; step <= 100; step++) {
    const candidate = toHex(base.map((v) => v * (1 - step / 100)));
    if (contrastRatio(candidate, '#ffffff') >= ratio) return candidate;
  }
  return '#000000';
}
