/**
 * The project whose files the media on a page belong to: set once by the shell (main.tsx) from the route, read by
 * every media reference drawn below it (chat parts, JSON trees); null on pages without a project (no file is fetched).
 * @module
 */
import { createContext } from 'preact';

export const MediaProject = createContext<string | null>(null);
