/**
 * The bank's mark, drawn once here: six cells around a nucleus on a blue disc, joined like the arms
 * of a snowflake (cells kept frozen). It has no lettering: the bank's name is a setting
 * (COMPANY_NAME), and the name of the portal is written beside the mark wherever it shows. The
 * header's React component (logo-mark.tsx), the header the server paints before the app runs
 * (frame-placeholder.ts) and the favicon (vite.config.ts) all draw these shapes.
 */
type Shape =
  | ['circle', { cx: number; cy: number; r: number; fill: string }]
  | ['path', { d: string; stroke: string; strokeWidth: number; strokeLinecap: 'round' }];

/** The six cells, every 60 degrees at 9 units from the centre, the first at the top. */
const CELLS: ReadonlyArray<readonly [number, number]> = [
  [16, 7],
  [23.79, 11.5],
  [23.79, 20.5],
  [16, 25],
  [8.21, 20.5],
  [8.21, 11.5],
];

/** Mantine's blue 9, the colour of the portal's name beside the mark. */
const DISC = '#1864ab';

export const LOGO_MARK_VIEW_BOX = '0 0 32 32';

export const LOGO_MARK_SHAPES: readonly Shape[] = [
  ['circle', { cx: 16, cy: 16, r: 16, fill: DISC }],
  [
    'path',
    {
      d: CELLS.map(([x, y]) => `M16 16L${x} ${y}`).join(''),
      stroke: '#a5d8ff',
      strokeWidth: 1.6,
      strokeLinecap: 'round',
    },
  ],
  ...CELLS.map(([cx, cy]): Shape => ['circle', { cx, cy, r: 3, fill: '#fff' }]),
  ['circle', { cx: 16, cy: 16, r: 4.2, fill: '#fff' }],
];

const kebab = (name: string) => name.replace(/[A-Z]/g, (c) => `-${c.toLowerCase()}`);

/**
 * The mark as SVG markup, for the pages' HTML before React runs and for the favicon. `attributes`
 * go on the `<svg>` element as they are (our own constants only: nothing here is escaped).
 */
export function logoMarkSvg(attributes = ''): string {
  const shapes = LOGO_MARK_SHAPES.map(
    ([tag, props]) =>
      `<${tag} ${Object.entries(props)
        .map(([name, value]) => `${kebab(name)}="${value}"`)
        .join(' ')}/>`,
  ).join('');
  return `<svg xmlns="http://www.w3.org/2000/svg" viewBox="${LOGO_MARK_VIEW_BOX}"${attributes ? ` ${attributes}` : ''}>${shapes}</svg>`;
}
