/**
 * The colours of the HTML report's series. A format keeps one colour in every chart of a run: its
 * place in the lab's list of subjects picks it, so the palette holds at least as many colours as
 * there are subjects (test/lab/report/palette.test.ts checks that, and that no two are alike). The
 * first ten are Observable's categorical palette; the rest were chosen as far from those as could
 * be found (CIELAB distance), dark enough to read on white.
 */
import { subjectNames } from '../subjects.js';

export const seriesPalette: readonly string[] = Object.freeze([
  '#4269d0',
  '#efb118',
  '#ff725c',
  '#6cc5b0',
  '#3ca951',
  '#ff8ab7',
  '#a463f2',
  '#97bbf5',
  '#9c6b4e',
  '#9498a0',
  '#222222',
  '#8f9a1d',
  '#800080',
  '#6b0f1a',
]);

/** The subjects in the order that gives each its colour. */
export const colourOrder: readonly string[] = subjectNames;
