/**
 * `/api/docs`: the OpenAPI description as one plain HTML page — operations by tag with their
 * parameters, bodies and answers, then every schema. Rendered with React as the order mail is (it
 * escapes every value); no script and nothing fetched from elsewhere, so it works where the API runs
 * without internet (docs/decisions/171-one-zod-contract.md). Any OpenAPI tool reads /api/openapi.json.
 */
import { createElement as h, Fragment, type ReactNode } from 'react';
import { renderToStaticMarkup } from 'react-dom/server';

type Json = null | boolean | number | string | Json[] | JsonObject;
// An index signature, not Record: a Record alias cannot refer to Json, which refers back to it.
type JsonObject = { [key: string]: Json };

const asObject = (value: Json | undefined): JsonObject =>
  value && typeof value === 'object' && !Array.isArray(value) ? value : {};
const text = (value: Json | undefined): string => (typeof value === 'string' ? value : '');

const REF = '#/components/schemas/';

/** A schema as indented JSON, each `$ref` a link to the schema it names. */
function SchemaBlock({ schema }: { schema: Json }): ReactNode {
  const parts = JSON.stringify(schema, null, 2).split(/("#\/components\/schemas\/[A-Za-z]+")/);
  return h(
    'pre',
    null,
    parts.map((part, i) => {
      const name = part.startsWith(`"${REF}`) ? part.slice(REF.length + 1, -1) : null;
      return name ? h('a', { key: i, href: `#schema-${name}` }, `"${name}"`) : part;
    }),
  );
}

/** A body or answer: a link to its schema, an inline schema, or its media type alone. */
function Content({ content }: { content: Json | undefined }): ReactNode {
  const [mediaType, media] = Object.entries(asObject(content))[0] ?? [];
  if (!mediaType) return null;
  const schema = asObject(media).schema;
  const ref = text(asObject(schema).$ref);
  if (ref.startsWith(REF)) {
    const name = ref.slice(REF.length);
    return h(Fragment, null, ' ', h('a', { href: `#schema-${name}` }, name));
  }
  return schema === undefined ? h(Fragment, null, ' ', h('code', null, mediaType)) : h(SchemaBlock, { schema });
}

function OperationSection({ method, path, operation }: { method: string; path: string; operation: JsonObject }) {
  const parameters = (Array.isArray(operation.parameters) ? operation.parameters : []).map(asObject);
  const body = asObject(operation.requestBody);
  return h(
    'section',
    { id: text(operation.operationId) },
    h('h3', null, h('span', { className: 'method' }, method.toUpperCase()), ' ', h('code', null, path)),
    h('p', null, text(operation.summary)),
    parameters.length > 0 &&
      h(
        'table',
        null,
        h('thead', null, h('tr', null, ...['Parameter', 'In', 'Required', 'About'].map((t) => h('th', { key: t }, t)))),
        h(
          'tbody',
          null,
          parameters.map((p) =>
            h(
              'tr',
              { key: `${text(p.in)}:${text(p.name)}` },
              h('td', null, h('code', null, text(p.name))),
              h('td', null, text(p.in)),
              h('td', null, p.required ? 'yes' : 'no'),
              h('td', null, text(p.description)),
            ),
          ),
        ),
      ),
    body.content &&
      h('p', null, `Body (${body.required ? 'required' : 'optional'}):`, h(Content, { content: body.content })),
    h(
      'ul',
      null,
      Object.entries(asObject(operation.responses)).map(([status, response]) =>
        h(
          'li',
          { key: status },
          h('strong', null, status),
          ' ',
          text(asObject(response).description),
          h(Content, { content: asObject(response).content }),
        ),
      ),
    ),
  );
}

const STYLE = `body{font:16px/1.5 system-ui,sans-serif;max-width:60rem;margin:0 auto;padding:1rem;color:#1a1a1a}
pre{background:#f4f4f5;padding:.75rem;overflow:auto;font-size:.85rem}
table{border-collapse:collapse}td,th{border:1px solid #ddd;padding:.25rem .5rem;text-align:left}
.method{display:inline-block;min-width:4.5rem;font-family:monospace}
section{border-top:1px solid #e4e4e7;padding:.5rem 0}`;

export function apiReferencePage(document: object): string {
  const doc = document as JsonObject;
  const info = asObject(doc.info);
  const byTag = new Map<string, ReactNode[]>();
  for (const [path, item] of Object.entries(asObject(doc.paths)))
    for (const [method, operation] of Object.entries(asObject(item))) {
      const op = asObject(operation);
      const tag = Array.isArray(op.tags) ? text(op.tags[0]) : 'API';
      byTag.set(tag, [
        ...(byTag.get(tag) ?? []),
        h(OperationSection, { key: `${method} ${path}`, method, path, operation: op }),
      ]);
    }
  const title = text(info.title);
  const page = h(
    'html',
    { lang: 'en' },
    h(
      'head',
      null,
      h('meta', { charSet: 'utf-8' }),
      h('meta', { name: 'viewport', content: 'width=device-width, initial-scale=1' }),
      h('title', null, `${title} — reference`),
      h('style', { dangerouslySetInnerHTML: { __html: STYLE } }),
    ),
    h(
      'body',
      null,
      h('h1', null, title),
      h('p', null, text(info.description)),
      h(
        'p',
        null,
        'Machine-readable: ',
        h('a', { href: 'openapi.json' }, 'openapi.json'),
        ` (OpenAPI ${text(doc.openapi)}).`,
      ),
      [...byTag.entries()].map(([tag, operations]) => h(Fragment, { key: tag }, h('h2', null, tag), operations)),
      h('h2', null, 'Schemas'),
      Object.entries(asObject(asObject(doc.components).schemas)).map(([name, schema]) =>
        h('section', { key: name, id: `schema-${name}` }, h('h3', null, name), h(SchemaBlock, { schema })),
      ),
    ),
  );
  return `<!doctype html>${renderToStaticMarkup(page)}`;
}
