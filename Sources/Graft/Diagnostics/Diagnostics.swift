// Diagnostics: the wording both `build()` and a resolve use for the same mistake, so the two
// never drift apart.
//
// What is here: near matches for a key nobody registers (`Suggestions`), the hints for a
// synchronous call that needed `await` (`OverloadHints`, `SynchronousClose`), the error for a
// dependency cycle (`CycleReport`), and lifetimes ordered by how long they live, with why a
// longer-lived holder cannot keep a shorter-lived instance (`Lifetime+Ordering`).
//
// The rule: this folder uses only the vocabulary (`ServiceKey`, `Lifetime`, `GraftError`) and
// names nothing in Validation/, Resolution/ or Runtime/; validation, resolution and keyed-value
// injection call into it, never through one another.
