// Stylelint keeps the design tokens the only source of colours, type and space (docs/decisions/185-design-tokens.md).

/** Properties whose values must come from src/styles/tokens.css (a var()), or be one of the neutral keywords. */
const TOKEN_PROPERTIES = [
  '/^(margin|padding)(-|$)/',
  '/^(row-|column-)?gap$/',
  'font',
  'font-size',
  'font-family',
  'font-weight',
  'line-height',
  'letter-spacing',
  'border-radius',
  'box-shadow',
];

/** @type {import('stylelint').Config} */
export default {
  plugins: ['stylelint-declaration-strict-value'],
  rules: {
    // Colours, in any property (borders, gradients, shadows): only through a token.
    'color-no-hex': true,
    'color-named': 'never',
    'function-disallowed-list': ['rgb', 'rgba', 'hsl', 'hsla', 'hwb', 'lab', 'lch', 'oklab', 'oklch', 'color'],
    'scale-unlimited/declaration-strict-value': [
      TOKEN_PROPERTIES,
      {
        ignoreValues: ['0', 'auto', 'inherit', 'initial', 'unset', 'none', 'normal', 'currentColor', 'transparent'],
        ignoreFunctions: false,
        expandShorthand: true,
        message: 'Use a design token (var(--…) from src/styles/tokens.css) for "${property}", not "${value}"',
      },
    ],
  },
  overrides: [
    // Astro components keep their scoped styles in a <style> block.
    { files: ['**/*.astro'], customSyntax: 'postcss-html' },
    // The one file where raw values are written.
    {
      files: ['src/styles/tokens.css'],
      rules: {
        'color-no-hex': null,
        'color-named': null,
        'function-disallowed-list': null,
        'scale-unlimited/declaration-strict-value': null,
      },
    },
  ],
};
