// The services that scenarios 1–5 and 7 resolve. They do no work of their own, so what a
// benchmark measures is the container: lookup, lifetime bookkeeping and allocation.
//
// The initializers are `@inlinable` because the services live in a library of their own (the
// ordo-one benchmarks and `graft-instructions` share them): hand-written code in another module
// must still inline them, as it did when they shared a module, or the baseline gets slower.

/// A long-lived service: resolved as a singleton in scenario 1 and scenario 7.
public final class AppSettings: Sendable {
    public let name: String

    @inlinable
    public init() { self.name = "graft-benchmarks" }
}

/// A transient service with no dependencies (scenario 2).
public final class Leaf: Sendable {
    @inlinable
    public init() {}
}

/// The bottom of the diamond A(B, C), B(D), C(D), D (scenarios 3, 4 and 7): four levels,
/// five objects when D is transient, four when D is a singleton shared by B and C.
public final class D: Sendable {
    @inlinable
    public init() {}
}

public final class B: Sendable {
    public let d: D

    @inlinable
    public init(d: D) { self.d = d }
}

public final class C: Sendable {
    public let d: D

    @inlinable
    public init(d: D) { self.d = d }
}

public final class A: Sendable {
    public let b: B
    public let c: C

    @inlinable
    public init(b: B, c: C) {
        self.b = b
        self.c = c
    }
}
