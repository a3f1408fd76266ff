/// The scenarios of the ordo-one benchmarks (1–5, and 8's container creation) that
/// `graft-instructions` repeats.
enum Scenario: String, CaseIterable {
    /// Resolve a singleton that already exists.
    case singleton
    /// Resolve a transient with no dependencies (a closure factory).
    case transient
    /// Resolve A(B, C), B(D), C(D), D, all transient: five new objects.
    case graph
    /// The same with D an existing singleton: three new objects.
    case graphSingletonLeaf
    /// Make a scope, resolve the scoped RequestContext and the transient RequestHandler that
    /// uses it, close the scope.
    case requestScope
    /// Scenario 8: create the random graph's container (Graft: register and `build()`, which
    /// validates; Swinject: register; by hand: the object that will build the graph), then let
    /// it go.
    case randomGraphCreate
    /// Scenario 8's first use: create the container and resolve its root, which makes every
    /// one of the 200 singletons once (the first-use cost of an app's services). The first use
    /// alone is this minus `randomGraphCreate`.
    case randomGraphFirstUse
    /// The random graph in use: every one of its 200 singletons, already made, resolved once,
    /// each through its own type (`resolve(Node042.self)`, specialized for it, as an app's code
    /// asks): what resolving an existing singleton costs among many types, where `singleton`
    /// asks for one type again and again. One operation is 200 resolves.
    case randomGraphResolveAgain
    /// Make a child container of a built parent of 1,000 singletons: the child registers 10
    /// singletons, each depending on two of the parent's (registering them is part of making
    /// it), and is let go. Not for `handwritten`.
    case childOf1000
    /// The same with a parent of 10,000: how making a child grows with its parent.
    case childOf10000
    /// A child of 100 registrations under the parent of 1,000: how it grows with the child.
    case child100Of1000
    /// A child of 10 under the parent of 1,000, in use: made, one of its singletons resolved
    /// (with its two parent dependencies), then shut down.
    case childOf1000InUse

    /// Whether the scenario makes child containers, which hand-written code has no match for.
    var makesChildren: Bool {
        switch self {
        case .childOf1000, .childOf10000, .child100Of1000, .childOf1000InUse: true
        default: false
        }
    }
}

/// The libraries `graft-instructions` compares.
enum Library: String, CaseIterable {
    case handwritten
    case graft
    case swinject
    /// Graft with one observer that does nothing: what observing a container costs.
    case graftObserved
    /// A `[ObjectIdentifier: AnyObject]` of the existing singletons, looked up by type and cast
    /// back (the published random-graph benchmark's "Simple" baseline): only for
    /// `randomGraphResolveAgain`.
    case dictionary
    /// Graft resolving through a generic function that is never specialized, as code generic over
    /// the service type in another module does: only for `randomGraphResolveAgain`.
    case graftUnspecialized

    /// Whether the library has a version of `randomGraphResolveAgain` only.
    var resolvesTheRandomGraphOnly: Bool { self == .dictionary || self == .graftUnspecialized }
}

/// Keeps a value alive as far as the optimizer knows, so a loop of resolves is not thrown
/// away. The same trick as the ordo-one harness's `blackHole`, so both cost the same per call.
@inline(never) @_optimize(none)
func blackHole<Value>(_ value: Value) {}

/// A resolve that answered nothing: the run stops rather than count a broken setup.
struct NotResolved: Error, CustomStringConvertible {
    let type: Any.Type
    var description: String { "could not resolve \(type)" }
}
