// What reviews.pair answers, for the review screens' component tests (the Convex stand-in is
// src/test/convex-mock.ts): two personas × one topic, three answers under neutral labels.
import type { ReviewCurrent, ReviewPairView } from "./review-model";

export const ANSWERS = [
  { label: "A", content: "Brewed for **pirates**: coffee that sails." },
  { label: "B", content: "A cup of verse, a sip of rhyme." },
  { label: "C", content: "Wake up and smell the _harbour_." },
];

export function makeCurrent(overrides: Partial<ReviewCurrent> = {}): ReviewCurrent {
  return {
    personaId: "p1",
    topicId: "t1",
    personaName: "Pirate",
    topicName: "Coffee",
    userPrompt: "Write a tagline for a coffee shop.",
    answers: ANSWERS,
    verdict: null,
    ...overrides,
  };
}

export function makePairView(overrides: Partial<ReviewPairView> = {}): ReviewPairView {
  return {
    scale: "ranking",
    criteria: [],
    canReview: true,
    pairs: [
      { personaId: "p1", topicId: "t1", personaName: "Pirate", topicName: "Coffee", answers: 3, reviewed: false },
      { personaId: "p2", topicId: "t1", personaName: "Poet", topicName: "Coffee", answers: 3, reviewed: true },
    ],
    current: makeCurrent(),
    ...overrides,
  };
}
