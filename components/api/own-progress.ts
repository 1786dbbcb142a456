/**
 * `meta` of a mutation that shows its own progress and may take long by design (an import, an
 * Ask, a call to the model): the slow-save notice (components/ui/slow-save-notice.tsx) leaves it out.
 */
export const OWN_PROGRESS = Object.freeze({ ownProgress: true });
