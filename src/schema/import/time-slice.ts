// An import checks and writes thousands of records on the event loop that answers every request: its
// work is cut into slices, and between two it lets whatever waits run (setImmediate comes after I/O), so
// that no request waits for more than a slice. A slice is a few milliseconds of the import's CPU: the
// pause costs nothing until then.
const SLICE_MS = 20;

/** A pause to await between steps: undefined (nothing to wait for) until the slice is used up. */
export function timeSlicer(): () => Promise<void> | undefined {
  let since = performance.now();
  return () => {
    if (performance.now() - since < SLICE_MS) return undefined;
    return new Promise((resolve) =>
      setImmediate(() => {
        since = performance.now();
        resolve();
      }),
    );
  };
}
