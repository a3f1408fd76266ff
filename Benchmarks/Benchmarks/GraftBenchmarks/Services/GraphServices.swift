// The services that scenarios 1–5 and 7 resolve. They do no work of their own, so what a
// benchmark measures is the container: lookup, lifetime bookkeeping and allocation.

/// A long-lived service: resolved as a singleton in scenario 1 and scenario 7.
final class AppSettings: Sendable {
    let name = "graft-benchmarks"
}

/// A transient service with no dependencies (scenario 2).
final class Leaf: Sendable {}

/// The bottom of the diamond A(B, C), B(D), C(D), D (scenarios 3, 4 and 7): four levels,
/// five objects when D is transient, four when D is a singleton shared by B and C.
final class D: Sendable {}

final class B: Sendable {
    let d: D
    init(d: D) { self.d = d }
}

final class C: Sendable {
    let d: D
    init(d: D) { self.d = d }
}

final class A: Sendable {
    let b: B
    let c: C
    init(b: B, c: C) {
        self.b = b
        self.c = c
    }
}
