/// One registration as the builder collected it: what it answers for and how to make it.
///
/// A description only: nothing here runs. `build()` links registrations into a graph, checks it,
/// and freezes the graph into the table a container resolves from.
@usableFromInline
struct Registration: Sendable {
    // Swift lays fields out in the order they are declared, so the small ones sit together:
    // a registration is one element of the builder's array, and 30,000 of them add up.
    /// The registered type: what the registration answers for, with ``name``, and what an
    /// instance is made as when only the registration is at hand.
    let serviceType: any Sendable.Type
    /// The name that tells registrations of one type apart; `nil` for most.
    let name: String?
    /// What few registrations have, in one field, so that the others pay 8 bytes for it, not
    /// 16: a scope tag, activation hooks. Empty for most. Here, between two 8-byte fields:
    /// after the recipe it would cost a registration padding too.
    private(set) var extras: [Extra]
    /// How the instance is made.
    let recipe: Recipe
    let lifetime: Lifetime.Kind
    /// The line of ``source``.
    let line: Int32
    /// The dependencies known before anything runs, in parameter order.
    private(set) var dependencies: [DeclaredDependency]
    /// The file of ``source``.
    let fileID: String

    @usableFromInline
    init<Service: Sendable>(
        _ type: Service.Type,
        name: String?,
        lifetime: Lifetime.Kind,
        scopeTag: ScopeTagID? = nil,
        recipe: Recipe,
        dependencies: [DeclaredDependency] = [],
        fileID: String,
        line: Int
    ) {
        self.serviceType = type
        self.name = name
        self.extras = scopeTag.map { [.scopeTag($0)] } ?? []
        self.recipe = recipe
        self.lifetime = lifetime
        self.line = Int32(clamping: line)
        self.dependencies = dependencies
        self.fileID = fileID
    }

    /// What the registration answers for. Made when asked, not stored: the key would repeat
    /// ``serviceType`` and its identity, 16 bytes in each of 30,000 registrations.
    var key: ServiceKey { ServiceKey(serviceType, name: name) }

    var kind: FactoryKind { recipe.kind }

    /// One of the ``extras``.
    enum Extra: Sendable {
        case scopeTag(ScopeTagID)
        case activation(Activation)
    }

    /// The tag of the scope a `.scoped(in:)` registration is shared in (its `lifetime` is
    /// `.scoped`); `nil` for every other registration.
    var scopeTag: ScopeTagID? { Self.scopeTag(in: extras) }

    /// Hooks run on each new instance, in the order they were added.
    var activations: [Activation] { Self.activations(in: extras) }

    /// The scope tag among `extras` (see ``scopeTag``): for a reader that holds the extras alone.
    static func scopeTag(in extras: [Extra]) -> ScopeTagID? {
        for extra in extras {
            if case .scopeTag(let tag) = extra { return tag }
        }
        return nil
    }

    /// The hooks among `extras` (see ``activations``): for a reader that holds the extras alone.
    static func activations(in extras: [Extra]) -> [Activation] {
        // Most have none: no closure to run over an empty array when an entry is first made.
        guard !extras.isEmpty else { return [] }
        return extras.compactMap { extra -> Activation? in
            guard case .activation(let activation) = extra else { return nil }
            return activation
        }
    }

    /// The lifetime as users spell it, with its tag: `.scoped(in: Session)`.
    var publicLifetime: Lifetime { Lifetime(lifetime, tag: scopeTag) }

    /// The lifetime as code spells it, with its tag: `.scoped(in: Session)`.
    var lifetimeLabel: String {
        publicLifetime.description
    }

    /// Where the registration was made, for messages.
    var source: SourceLocation { SourceLocation(fileID: fileID, line: line) }

    /// Replaces the declared dependencies: to mark which parameters are runtime arguments.
    mutating func replaceDependencies(_ dependencies: [DeclaredDependency]) {
        self.dependencies = dependencies
    }

    /// Adds `activation` after the other hooks; an explicit completion step replaces the one a
    /// ``Completable`` service's registration implies.
    mutating func add(_ activation: Activation) {
        if let step = activation.completion, !step.isImplied {
            extras.removeAll { extra in
                guard case .activation(let existing) = extra else { return false }
                return existing.completion?.isImplied == true
            }
        }
        extras.append(.activation(activation))
    }
}

/// A hook on each new instance: property injection and configuration (activation hooks),
/// wrapping (decorators), disposal by a closure, or a completion step.
@usableFromInline
struct Activation: Sendable {
    /// What the hook is, as messages name it.
    enum Role: String, Sendable {
        case activation = "activation hook"
        case decorator
        case disposal = "dispose closure"
        case completion = "completion step"
    }

    let role: Role
    /// Changes or replaces the instance; a disposal hook leaves it alone.
    let run: @Sendable (inout any Sendable, any Resolver) throws -> Void
    /// For a disposal hook, what disposing the instance does.
    let disposer: Disposer?
    /// For a completion step, what completing the instance does.
    let completion: CompletionStep?

    init(_ role: Role = .activation, run: @escaping @Sendable (inout any Sendable, any Resolver) throws -> Void) {
        self.role = role
        self.run = run
        self.disposer = nil
        self.completion = nil
    }

    init(disposer: Disposer) {
        self.role = .disposal
        self.run = { _, _ in }
        self.disposer = disposer
        self.completion = nil
    }

    init(completion: CompletionStep) {
        self.role = .completion
        self.run = { _, _ in }
        self.disposer = nil
        self.completion = completion
    }
}

/// How a registration's completion step completes one instance (see ``Completable``): run by
/// the scope that made the instance, when its owner calls ``Scope/complete()``.
@usableFromInline
struct CompletionStep: Sendable {
    let complete: @Sendable (any Sendable) async throws -> Void
    /// Where the step was added, for messages.
    let source: String
    /// Whether the step is the one a ``Completable`` service's registration implies, rather than
    /// one `onComplete` added: an explicit step replaces it, and an instance made outside any
    /// scope skips it (no scope could run it) instead of failing.
    var isImplied = false

    /// The steps of one registration as one: each runs in the order it was added.
    static func combining(_ steps: [CompletionStep]) -> CompletionStep? {
        guard let first = steps.first else { return nil }
        guard steps.count > 1 else { return first }
        return CompletionStep(
            complete: { instance in
                for step in steps { try await step.complete(instance) }
            },
            source: first.source,
            isImplied: steps.allSatisfy(\.isImplied)
        )
    }
}

/// How a registration's dispose closure disposes one instance.
@usableFromInline
enum Disposer: Sendable {
    case sync(@Sendable (any Sendable) throws -> Void)
    case async(@Sendable (any Sendable) async throws -> Void)
}

/// A place in the user's source code.
@usableFromInline
struct SourceLocation: Sendable, CustomStringConvertible {
    let fileID: String
    let line: Int32

    @usableFromInline
    var description: String { "\(fileID):\(line)" }
}
