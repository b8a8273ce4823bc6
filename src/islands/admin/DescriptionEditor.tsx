/**
 * The product description as rich text (docs/decisions/207-product-editor.md): Tiptap, with only the
 * marks and blocks the import's sanitiser keeps (bold, italic, underline, headings 3 and 4, lists,
 * quotes, links, line breaks), so what the operator sees is what the storefront shows. The toolbar is
 * one tab stop (arrow keys move within it, as WAI-ARIA's toolbar pattern has it); each button has a name,
 * its shortcut and its pressed state. The HTML goes with the form as `description_html`; the API still
 * sanitises it.
 */
import { EditorContent, useEditor, useEditorState, type Editor } from '@tiptap/react';
import StarterKit from '@tiptap/starter-kit';
import { useEffect, useId, useRef, useState, type KeyboardEvent } from 'react';
import { Field } from '../forms/Field.tsx';

type Tool = {
  label: string;
  /** Shown on the button; its name is the label (in text, not aria-label, so the two never disagree). */
  face: string;
  shortcut: string;
  active(editor: Editor): boolean;
  run(editor: Editor): void;
};

const chain = (editor: Editor) => editor.chain().focus();

const TOOLS: Tool[] = [
  {
    label: 'Bold',
    face: 'B',
    shortcut: 'Control+B',
    active: (e) => e.isActive('bold'),
    run: (e) => chain(e).toggleBold().run(),
  },
  {
    label: 'Italic',
    face: 'I',
    shortcut: 'Control+I',
    active: (e) => e.isActive('italic'),
    run: (e) => chain(e).toggleItalic().run(),
  },
  {
    label: 'Underline',
    face: 'U',
    shortcut: 'Control+U',
    active: (e) => e.isActive('underline'),
    run: (e) => chain(e).toggleUnderline().run(),
  },
  {
    label: 'Heading',
    face: 'H',
    shortcut: 'Control+Alt+3',
    active: (e) => e.isActive('heading', { level: 3 }),
    run: (e) => chain(e).toggleHeading({ level: 3 }).run(),
  },
  {
    label: 'Subheading',
    face: 'h',
    shortcut: 'Control+Alt+4',
    active: (e) => e.isActive('heading', { level: 4 }),
    run: (e) => chain(e).toggleHeading({ level: 4 }).run(),
  },
  {
    label: 'Bulleted list',
    face: '•',
    shortcut: 'Control+Shift+8',
    active: (e) => e.isActive('bulletList'),
    run: (e) => chain(e).toggleBulletList().run(),
  },
  {
    label: 'Numbered list',
    face: '1.',
    shortcut: 'Control+Shift+7',
    active: (e) => e.isActive('orderedList'),
    run: (e) => chain(e).toggleOrderedList().run(),
  },
  {
    label: 'Quote',
    face: '“',
    shortcut: 'Control+Shift+B',
    active: (e) => e.isActive('blockquote'),
    run: (e) => chain(e).toggleBlockquote().run(),
  },
];

/** Only what `sanitizeDescription` keeps: the editor can make nothing the server would drop. */
const extensions = [
  StarterKit.configure({
    code: false,
    codeBlock: false,
    strike: false,
    horizontalRule: false,
    heading: { levels: [3, 4] },
    link: {
      openOnClick: false,
      protocols: ['mailto'],
      // The storefront sets rel itself; a target would open every link in a new tab.
      HTMLAttributes: { target: null, rel: null },
      isAllowedUri: (url) => /^(https?:|mailto:)/i.test(url),
    },
  }),
];

type Props = {
  label: string;
  hint: string;
  name: string;
  defaultValue: string;
  error?: string;
};

export function DescriptionEditor({ label, hint, name, defaultValue, error }: Props) {
  const id = `description-${useId()}`;
  const [labelId, hintId, errorId] = [`${id}-label`, `${id}-hint`, `${id}-error`];
  const [html, setHtml] = useState(defaultValue);
  const [linking, setLinking] = useState(false);
  const [focusIndex, setFocusIndex] = useState(0);
  const toolbar = useRef<HTMLDivElement>(null);
  const editor = useEditor({
    extensions,
    content: defaultValue,
    immediatelyRender: false,
    // Empty paragraphs left at the end (after a select-all and retype) would show as blank space.
    onUpdate: ({ editor: e }) => setHtml(e.isEmpty ? '' : e.getHTML().replace(/(?:<p><\/p>)+$/, '')),
  });
  // ProseMirror's editable element is the field's control: a named, described, multi-line textbox.
  useEffect(() => {
    if (!editor || editor.isDestroyed) return;
    const attributes: Record<string, string> = {
      id,
      role: 'textbox',
      'aria-multiline': 'true',
      'aria-labelledby': labelId,
      'aria-describedby': error ? `${errorId} ${hintId}` : hintId,
      ...(error ? { 'aria-invalid': 'true' } : {}),
    };
    editor.setOptions({ editorProps: { attributes } });
  }, [editor, error, id, labelId, hintId, errorId]);
  const pressed = useEditorState({
    editor,
    selector: ({ editor: e }) => [...TOOLS.map((tool) => (e ? tool.active(e) : false)), e?.isActive('link') ?? false],
  });
  const count = TOOLS.length + 1;

  // One tab stop: arrows, Home and End move between the buttons.
  function onToolbarKey(event: KeyboardEvent<HTMLDivElement>) {
    const moves: Record<string, number> = {
      ArrowRight: focusIndex + 1,
      ArrowLeft: focusIndex - 1,
      Home: 0,
      End: count - 1,
    };
    const next = moves[event.key];
    if (next === undefined) return;
    event.preventDefault();
    const index = (next + count) % count;
    setFocusIndex(index);
    toolbar.current?.querySelectorAll<HTMLButtonElement>('button')[index]?.focus();
  }

  return (
    <div className="sf-field console__rte">
      <span id={labelId} className="sf-field__label">
        {label}
      </span>
      <div
        ref={toolbar}
        role="toolbar"
        aria-label={`${label} formatting`}
        aria-controls={id}
        className="console__rte-toolbar"
        onKeyDown={onToolbarKey}
      >
        {TOOLS.map((tool, i) => (
          <button
            key={tool.label}
            type="button"
            className="console__rte-button"
            aria-pressed={pressed?.[i] ?? false}
            aria-keyshortcuts={tool.shortcut}
            title={`${tool.label} (${tool.shortcut.replaceAll('Control', 'Ctrl')})`}
            tabIndex={focusIndex === i ? 0 : -1}
            disabled={!editor}
            onClick={() => editor && tool.run(editor)}
          >
            <span aria-hidden="true">{tool.face}</span>
            <span className="sr-only">{tool.label}</span>
          </button>
        ))}
        <button
          type="button"
          className="console__rte-button"
          aria-pressed={pressed?.[TOOLS.length] ?? false}
          aria-expanded={linking}
          title="Link"
          tabIndex={focusIndex === TOOLS.length ? 0 : -1}
          disabled={!editor}
          onClick={() => setLinking((open) => !open)}
        >
          Link
        </button>
      </div>
      {linking && editor && (
        <LinkForm
          editor={editor}
          onDone={() => {
            setLinking(false);
            editor.commands.focus();
          }}
        />
      )}
      <EditorContent editor={editor} className="console__rte-content" />
      <input type="hidden" name={name} value={html} />
      <p id={hintId} className="sf-field__hint">
        {hint}
      </p>
      {error ? (
        <p id={errorId} className="sf-field__error">
          {error}
        </p>
      ) : null}
    </div>
  );
}

/** The address of the selected text's link: set, changed or taken off. */
function LinkForm({ editor, onDone }: { editor: Editor; onDone(): void }) {
  const [href, setHref] = useState(() => String(editor.getAttributes('link').href ?? 'https://'));
  const [problem, setProblem] = useState<string | null>(null);
  const input = useRef<HTMLInputElement>(null);
  // The operator asked for this field by pressing Link: the caret goes there.
  useEffect(() => input.current?.focus(), []);

  function apply() {
    const url = href.trim();
    if (!/^(https?:\/\/\S+|mailto:\S+)$/i.test(url)) {
      setProblem('Give an address starting with https://, http:// or mailto:.');
      return;
    }
    chain(editor).extendMarkRange('link').setLink({ href: url }).run();
    onDone();
  }

  return (
    <div className="console__rte-link">
      <Field label="Link address" error={problem}>
        {(aria) => (
          <input
            {...aria}
            ref={input}
            className="sf-field__input"
            type="url"
            value={href}
            onChange={(event) => setHref(event.target.value)}
            onKeyDown={(event) => {
              // Enter would submit the product form: it applies the link instead.
              if (event.key === 'Enter') {
                event.preventDefault();
                apply();
              }
              if (event.key === 'Escape') onDone();
            }}
          />
        )}
      </Field>
      <div className="console__links">
        <button type="button" className="button" onClick={apply}>
          Apply link
        </button>
        {editor.isActive('link') && (
          <button
            type="button"
            className="button"
            onClick={() => {
              chain(editor).extendMarkRange('link').unsetLink().run();
              onDone();
            }}
          >
            Remove link
          </button>
        )}
      </div>
    </div>
  );
}
