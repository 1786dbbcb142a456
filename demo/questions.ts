/**
 * The questions `npm run demo` queues on the demo graph (the Questions tab lists them). Each but
 * the first finds one of the gaps or the wrong edge demo/README.md lists, so a fresh demo's run
 * queue has HIGH, MEDIUM and LOW proposals to review; the first is one the graph answers.
 * scripts/demo-questions.test.ts runs them through the real loop and review.
 */
export const DEMO_QUESTIONS: readonly string[] = [
  "What does Client inherit from?",
  "What does BearerAuth inherit from?",
  "How is HTTPTransport related to ConnectionPool?",
  "How is MockTransport related to BaseTransport?",
  "How is AsyncHTTPTransport related to HTTPTransport?",
];
