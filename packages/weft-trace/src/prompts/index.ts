/**
 * Prompts: versioned by content through the objects API, labelled, formatted into messages that carry their ref.
 * @module
 */
export { PROMPT_REF_ATTRIBUTE, promptRefOf } from './prompt-marker.js';
export { LABELS_CLASS, type LabelMove, type PromptLabels, readPromptLabels, setPromptLabel, type SetLabelOptions } from './prompt-labels.js';
export { clearPromptCache, DEFAULT_PROMPT_TTL_MS, getPrompt, type GetPromptOptions, publishPrompt, type PromptTarget } from './prompt-publish.js';
export { PromptVariableError, type TemplateValues, type TemplateVariables, type VariableValue } from './prompt-template.js';
export { definitionOf, PROMPT_CLASS, type PromptDefinition, type PromptMessage, promptValue, type PromptValue } from './prompt-value.js';
export { type DefinitionVariables, definePrompt, Prompt, type PromptRequest, type PromptVersion } from './prompt.js';
