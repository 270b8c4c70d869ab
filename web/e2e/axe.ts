import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import type { Page } from 'playwright-core';

/** axe-core's browser build, read once. */
const axeSource = readFileSync(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8');

/** WCAG 2.0, 2.1 and 2.2 at levels A and AA, and axe's best practices. */
const tags = ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'wcag22aa', 'best-practice'];

export interface AxeViolation {
  id: string;
  impact: string | null;
  help: string;
  targets: string[];
}

/**
 * Runs axe-core on the page as it is now (or on the parts `within` selects). The script is
 * evaluated through the DevTools protocol, which the app's strict Content-Security-Policy does
 * not govern (it would refuse an inline script).
 */
export const axeViolations = async (page: Page, within?: string[]): Promise<AxeViolation[]> => {
  if (!(await page.evaluate(() => 'axe' in window))) await page.evaluate(axeSource);
  return page.evaluate(
    async ({ runTags, within }) => {
      const axe = (
        window as unknown as {
          axe: {
            run: (
              context: Document | { include: string[][] },
              options: object,
            ) => Promise<{
              violations: {
                id: string;
                impact: string | null;
                help: string;
                nodes: { target: string[] }[];
              }[];
            }>;
          };
        }
      ).axe;
      const result = await axe.run(within ? { include: within.map((selector) => [selector]) } : document, {
        runOnly: { type: 'tag', values: runTags },
        resultTypes: ['violations'],
      });
      return result.violations.map((violation) => ({
        id: violation.id,
        impact: violation.impact,
        help: violation.help,
        targets: violation.nodes.map((node) => node.target.join(' ')),
      }));
    },
    { runTags: tags, within },
  );
};

/** Puts the page in `theme` through the app's own toggle (so the store and <html> agree). */
export const useTheme = async (page: Page, theme: 'light' | 'dark') => {
  const current = await page.evaluate(() => document.documentElement.dataset.theme);
  if (current !== theme) await page.getByTestId('theme-toggle').click();
  await page.waitForFunction((wanted) => document.documentElement.dataset.theme === wanted, theme);
};

/**
 * The WCAG contrast ratio of each element's text against its own background, for the elements
 * `selector` matches. axe leaves text it cannot separate from its background (same colour on
 * the same colour) as "incomplete", so buttons that paint their own background are measured here.
 */
export const ownBackgroundContrasts = (
  page: Page,
  selector: string,
): Promise<{ text: string; ratio: number }[]> =>
  page.evaluate((wanted) => {
    const luminance = (color: string) => {
      const [r, g, b] = (color.match(/[\d.]+/g) ?? []).slice(0, 3).map((part) => {
        const channel = Number(part) / 255;
        return channel <= 0.03928 ? channel / 12.92 : ((channel + 0.055) / 1.055) ** 2.4;
      });
      return 0.2126 * r! + 0.7152 * g! + 0.0722 * b!;
    };
    return [...document.querySelectorAll<HTMLElement>(wanted)].map((element) => {
      const style = getComputedStyle(element);
      const [lighter, darker] = [luminance(style.color), luminance(style.backgroundColor)].sort(
        (a, b) => b - a,
      );
      return {
        text: element.textContent ?? '',
        ratio: Math.round(((lighter! + 0.05) / (darker! + 0.05)) * 10) / 10,
      };
    });
  }, selector);
