export function PlaygroundPage(_p: { project: string; call?: string; prompt?: string; onError: (e: unknown) => void }) { return null; }
