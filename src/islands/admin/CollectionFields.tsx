/** A collection's fields, the same on the new-collection form and the edit form. */
import type { ConsoleCollection } from '../../lib/contract/answers.ts';
import { Field } from '../forms/Field.tsx';
import { TextField } from '../forms/TextField.tsx';
import { PositionField } from './PositionField.tsx';

type CollectionFieldsProps = {
  /** The saved values; none on the new-collection form. */
  collection?: ConsoleCollection;
  errorOf(key: string): { error?: string };
};

export function CollectionFields({ collection, errorOf }: CollectionFieldsProps) {
  return (
    <>
      <TextField
        name="title"
        label="Title"
        rules="required"
        maxLength={100}
        defaultValue={collection?.title ?? ''}
        {...errorOf('title')}
      />
      <TextField
        name="handle"
        label="Handle"
        hint="The collection’s address: /collections/handle. Lower-case letters, digits and hyphens."
        rules="required"
        maxLength={63}
        defaultValue={collection?.handle ?? ''}
        {...errorOf('handle')}
      />
      <Field label="Description" hint="Plain text, shown above the collection’s list." {...errorOf('description')}>
        {(aria) => (
          <textarea
            {...aria}
            name="description"
            rows={3}
            maxLength={2000}
            defaultValue={collection?.description ?? ''}
            className="sf-field__input console__textarea"
          />
        )}
      </Field>
      <PositionField
        where="in the store’s list of collections"
        defaultValue={collection?.position}
        optional={!collection}
        {...errorOf('position')}
      />
    </>
  );
}
