/// Every decision that depends on a lifetime, as one table: the engine, validation, the
/// lifecycle and leasing ask a lifetime's row here, and no other file compares lifetimes.
///
/// | lifetime | kept in (``InstanceStore``) | lives (``rank``) | made |
/// |---|---|---|---|
/// | `.transient` | nowhere | 0 (each resolve) | every resolve |
/// | `.graph` | the top-level call | 1 (one resolve call) | first use in the call |
/// | `.scoped` (and `.scoped(in:)`) | a slot of the scope | 2 (a scope) | first use in the scope |
/// | `.singleton` | a root slot | 3 (the container) | first use |
/// | `.eagerSingleton` | a root slot | 3 (the container) | during `build()` |
/// | `.weak` | the weak table | 0 (while held) | when none is alive |
///
/// How the engine resolves each store is `Resolution/LifetimeModel.swift`'s: it reads ``store``.
extension Lifetime.Kind {
    /// Where instances of this lifetime are kept.
    var store: InstanceStore {
        switch self {
        case .transient: .none
        case .graph: .call
        case .singleton, .eagerSingleton: .rootSlot
        case .scoped: .scopeSlot
        case .weak: .weakTable
        }
    }

    /// How long an instance lives, longest first; a dependency on a shorter-lived one is captive.
    var rank: Int {
        switch self {
        case .singleton, .eagerSingleton: 3
        case .scoped: 2
        case .graph: 1
        case .transient, .weak: 0
        }
    }

    /// How long an instance may be kept by what it holds, for the captive check: a `.weak`
    /// instance is shared by every scope and call while anything holds it (a singleton, say), so
    /// it may hold only what lives as long as a singleton.
    var holdingRank: Int { self == .weak ? Lifetime.Kind.singleton.rank : rank }

    /// Whether every resolve makes a new instance: what a captive check looks through, and the
    /// only lifetime a service with runtime arguments may have.
    var isMadePerResolve: Bool { store == .none }

    /// Whether `build()` makes the instance, before anything resolves.
    var isMadeAtBuild: Bool { self == .eagerSingleton }

    /// Whether the root container keeps the one instance: what start and stop hooks can run on.
    var isKeptByTheContainer: Bool { store == .rootSlot }

    /// Whether each scope keeps its own instance: what a lease, which lasts one scope, needs.
    var isKeptPerScope: Bool { store == .scopeSlot }
}

/// Where the instances of a lifetime are kept (see ``Lifetime/Kind/store``).
enum InstanceStore: Sendable {
    /// Not kept: a new instance every resolve.
    case none
    /// Kept by the top-level resolve call, shared by everything it creates.
    case call
    /// One slot of the root container.
    case rootSlot
    /// One slot of each scope.
    case scopeSlot
    /// Held weakly by the root container while anything else holds it.
    case weakTable
}
