/** A form's field list, unknown-name policy and page, as the rest of the code sees them. */
export {
  CHOICE_TYPES,
  FIELD_TYPES,
  MAX_FIELDS,
  MAX_OPTIONS,
  MAX_FIELDS_BYTES,
  MAX_OPTIONS_IN_ALL,
  MAX_PAGE_BYTES,
  UNKNOWN_FIELD_POLICIES,
  isSingleCheckbox,
  type FieldType,
  type FormField,
  type FormPage,
  type UnknownFieldPolicy,
} from '../../db/entities/form-fields';
