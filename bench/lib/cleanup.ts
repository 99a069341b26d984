/**
 * Cleanup actions (stop the server under test, drop a throwaway database) that must run whether a
 * suite finishes, throws or is interrupted. Each action runs once, newest first.
 */
type Action = { label: string; fn: () => Promise<void> };

const actions: Action[] = [];

/** Registers an action; returns a function that runs it now (once) and unregisters it. */
export function onCleanup(label: string, fn: () => Promise<void>): () => Promise<void> {
  let done: Promise<void> | null = null;
  const action: Action = {
    label,
    fn: () => (done ??= fn()),
  };
  actions.push(action);
  return async () => {
    const i = actions.indexOf(action);
    if (i !== -1) actions.splice(i, 1);
    await action.fn();
  };
}

let shuttingDown = false;

/** True once an interrupt started the cleanup: suites stop starting new work. */
export function isShuttingDown(): boolean {
  return shuttingDown;
}

export function markShuttingDown(): void {
  shuttingDown = true;
}

export async function runCleanups(): Promise<void> {
  while (actions.length > 0) {
    const action = actions.pop()!;
    try {
      await action.fn();
    } catch (err) {
      console.error(`cleanup "${action.label}" failed: ${(err as Error).message}`);
    }
  }
}
