/**
 * The object classes prompt versions and their labels are stored as (`objs/query` `base_object_classes`), without
 * the schemas, so a viewer's bundle can name them.
 * @module
 */

/** The object class prompts are stored as (`base_object_classes: ['Prompt']` lists them). */
export const PROMPT_CLASS = 'Prompt';

/** The object class the labels are stored as. */
export const LABELS_CLASS = 'PromptLabels';
