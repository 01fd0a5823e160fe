// Text helpers for the RAG example: lower-case word tokens without stop words, and sentence splitting.

const STOP_WORDS = new Set(
  ('a an and are as at be by can do does for from has have how i if in into is it its ' +
    'of on or so that the their then there these this to was what when where which who ' +
    'why will with you your').split(' '),
);

/** A crude stemmer: drops a plural or third-person `s` ("listens" → "listen", but not "class"). */
const stem = (word: string): string => (word.length > 3 && /[^su]s$/.test(word) ? word.slice(0, -1) : word);

/** Lower-case `[a-z0-9]` word tokens of `text`, stop words removed, lightly stemmed. */
export function tokenize(text: string): string[] {
  const words = text.toLowerCase().match(/[a-z0-9]+/g) ?? [];
  return words.filter((word) => word.length > 1 && !STOP_WORDS.has(word)).map(stem);
}

/** A line that starts a Markdown block of its own: a heading or a list item. */
const BLOCK_START = /^\s*(?:#+|[-*]|\d+\.)\s+/;

/** Sentences of a Markdown passage: wrapped lines rejoined, headings dropped, list and code marks removed. */
export function splitSentences(text: string): string[] {
  const blocks: string[] = [];
  for (const line of text.split('\n').map((l) => l.trim())) {
    const last = blocks[blocks.length - 1];
    if (last === undefined || last === '' || last.startsWith('#') || line === '' || BLOCK_START.test(line)) {
      blocks.push(line);
    } else {
      blocks[blocks.length - 1] = `${last} ${line}`;
    }
  }
  return blocks
    .filter((block) => block !== '' && !block.startsWith('#'))
    .map((block) => block.replace(BLOCK_START, '').replace(/`|\*\*?/g, ''))
    .flatMap((block) => block.split(/(?<=[.!?])\s+/))
    .map((sentence) => sentence.trim())
    .filter((sentence) => sentence.length > 0);
}
