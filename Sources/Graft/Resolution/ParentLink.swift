// A child engine resolves what it does not register through its parent's engine: the parent
// lookup, which the engine declares and makeChild wires in.

extension ParentLink {
    /// The container that registers `type` for a resolve with runtime arguments that starts at
    /// `start`, and where it starts: `start`, or for a child that does not register it, the
    /// nearest ancestor that does, in the scope that goes with the child's.
    static func inOwner<Result>(
        of type: any Any.Type,
        name: String?,
        startingAt start: ContainerCore,
        from state: ResolveState,
        _ body: (ContainerCore, inout ResolveState) throws(GraftError) -> Result
    ) throws(GraftError) -> Result {
        // A container that is not a child pays this one test.
        let table = start.table
        guard let parent = table.parent, table.entry(for: ObjectIdentifier(type), name: name) == nil else {
            var state = state
            return try body(start, &state)
        }
        return try parent.resolving(in: state.scope, of: start, key: ServiceKey(type, name: name)) {
            (inParent) throws(GraftError) -> Result in
            try inOwner(of: type, name: name, startingAt: parent.core, from: inParent, body)
        }
    }

    /// ``inOwner(of:name:startingAt:from:_:)`` for a resolve that awaits.
    static func inOwner<Result>(
        of type: any Any.Type,
        name: String?,
        startingAt start: ContainerCore,
        from state: ResolveState,
        _ body: (ContainerCore, inout ResolveState) async throws(GraftError) -> Result
    ) async throws(GraftError) -> Result {
        let table = start.table
        guard let parent = table.parent, table.entry(for: ObjectIdentifier(type), name: name) == nil else {
            var state = state
            return try await body(start, &state)
        }
        return try await parent.resolving(in: state.scope, of: start, key: ServiceKey(type, name: name)) {
            (inParent) async throws(GraftError) -> Result in
            try await inOwner(of: type, name: name, startingAt: parent.core, from: inParent, body)
        }
    }
}

/// Where a parent lists its live children: told when a child's link goes, so that the parent's
/// shutdown no longer looks for that child. The children feature conforms.
protocol ChildListing: AnyObject, Sendable {
    func remove(_ link: ParentLink)
}

/// A child's link to its parent: how the child's engine reaches the parent's engine, and the
/// token under which the parent lists the child (see ``ChildListing``).
@usableFromInline
final class ParentLink: Sendable {
    /// The parent's engine.
    let core: ContainerCore
    /// Where the parent lists its children.
    private let listing: any ChildListing

    init(parent core: ContainerCore, listedIn listing: any ChildListing) {
        self.core = core
        self.listing = listing
    }

    deinit {
        listing.remove(self)
    }

    /// Where the parent makes what a resolve in `childScope` asks of it: the parent's root for
    /// the child's root, else a scope of the parent made for `childScope` (its
    /// ``ParentScopeLink``), closed when `childScope` closes.
    ///
    /// The scope it returns is kept by `childScope`'s link only, which a close of `childScope`
    /// on another thread lets go: a resolve in it starts through ``resolving(in:of:key:_:)``,
    /// which keeps it for the whole resolve.
    private func scope(
        for childScope: Scope,
        of child: ContainerCore,
        key: @autoclosure () -> ServiceKey
    ) throws(GraftError) -> Scope {
        if childScope.isClosed { throw child.closedError(key(), childScope) }
        if childScope.isRoot { return core.root }
        return try ParentScopeLink.of(childScope, in: child).scope
    }

    /// Registration `node` of `owner`, the ancestor `hops` steps up, as the child's proxy for it
    /// hands it out: made by `owner` in the scope that goes with the child's.
    static func make<Service: Sendable>(
        _ node: Int,
        of owner: ContainerCore,
        hops: Int,
        as type: Service.Type,
        for construction: borrowing Construction
    ) throws(GraftError) -> Service {
        var core = construction.resolvingContainer
        var scope = construction.resolvingScope
        let entry = owner.table.entries[node]
        for _ in 0..<hops {
            // `owner` is `hops` ancestors up, so each container on the way has a parent.
            guard let link = core.table.parent else { break }
            scope = try link.scope(for: scope, of: core, key: entry.key)
            core = link.core
        }
        if scope.isClosed { throw owner.closedError(entry.key, scope) }
        let arguments = construction.arguments
        return try ResolveState.keeping(scope) { (state) throws(GraftError) -> Service in
            // Runtime arguments, which the child checked against the same types: a new transient,
            // which the parent's scope owns, as a resolve with them from the parent makes.
            if let arguments {
                if _slowPath(entry.isObserved) {
                    return try owner.createObserved(entry, &state, disposed: true, arguments: arguments) { _ in }
                }
                return try owner.create(entry, &state, disposed: true, arguments: arguments)
            }
            return try owner.make(entry, &state)
        }
    }

    /// Runs `body` with a state on the parent's scope that goes with `childScope` (see
    /// ``scope(for:of:key:)``), which this call keeps alive until `body` returns.
    func resolving<Result>(
        in childScope: Scope,
        of child: ContainerCore,
        key: @autoclosure () -> ServiceKey,
        _ body: (inout ResolveState) throws(GraftError) -> Result
    ) throws(GraftError) -> Result {
        try ResolveState.keeping(try scope(for: childScope, of: child, key: key()), body)
    }

    /// ``resolving(in:of:key:_:)`` for a resolve that awaits.
    func resolving<Result>(
        in childScope: Scope,
        of child: ContainerCore,
        key: @autoclosure () -> ServiceKey,
        _ body: (inout ResolveState) async throws(GraftError) -> Result
    ) async throws(GraftError) -> Result {
        try await ResolveState.keeping(try scope(for: childScope, of: child, key: key()), body)
    }

    /// What the child does not register, resolved by the parent.
    @usableFromInline
    func resolve<Service: Sendable>(
        _ type: Service.Type,
        name: String?,
        from childScope: Scope,
        of child: ContainerCore
    ) throws(GraftError) -> Service {
        try resolving(in: childScope, of: child, key: ServiceKey(type, name: name)) { (state) throws(GraftError) in
            try core.resolve(type, name: name, &state)
        }
    }

    func resolveAsync<Service: Sendable>(
        _ type: Service.Type,
        name: String?,
        from childScope: Scope,
        of child: ContainerCore
    ) async throws(GraftError) -> Service {
        try await resolving(in: childScope, of: child, key: ServiceKey(type, name: name)) {
            (state) async throws(GraftError) in try await core.resolveAsync(type, name: name, &state)
        }
    }

    /// Every registration of a type the child neither registers nor depends on: the parent's.
    @usableFromInline
    func resolveAll<Service: Sendable>(
        _ type: Service.Type,
        from childScope: Scope,
        of child: ContainerCore
    ) throws(GraftError) -> [Service] {
        try resolving(in: childScope, of: child, key: ServiceKey(type)) { (state) throws(GraftError) in
            try core.resolveAll(type, &state)
        }
    }

    func resolveAllAsync<Service: Sendable>(
        _ type: Service.Type,
        from childScope: Scope,
        of child: ContainerCore
    ) async throws(GraftError) -> [Service] {
        try await resolving(in: childScope, of: child, key: ServiceKey(type)) { (state) async throws(GraftError) in
            try await core.resolveAllAsync(type, &state)
        }
    }
}

/// The parent's scope that goes with one scope of a child: where the parent's scoped services
/// resolved in that scope live. The child's scope owns it and closes it when it closes, after
/// the child's own scoped services (made later, disposed first).
final class ParentScopeLink: Disposable {
    let scope: Scope

    init(_ scope: Scope) {
        self.scope = scope
    }

    func dispose() throws {
        try scope.close()
    }

    /// The registration every child has: one parent scope per child scope, made on first use,
    /// under the parent scope of the child scope's own parent scope, so that it sees the values
    /// given to that one as the child scope does.
    static func registration(_ link: ParentLink) -> Registration {
        Registration(
            ParentScopeLink.self,
            name: nil,
            lifetime: .scoped,
            recipe: Recipe(.autowired) { [core = link.core] construction in
                let scope = construction.resolvingScope
                var outer = core.root
                if case .scope(let enclosing) = scope.parent {
                    outer = try of(enclosing, in: construction.resolvingContainer).scope
                }
                try construction.deliver(ParentScopeLink(Scope(container: core, parent: outer)))
            },
            fileID: "Graft/makeChild()",
            line: 0
        )
    }

    /// The link of `scope`, a scope of the child `child`: made now if it was not yet.
    static func of(_ scope: Scope, in child: ContainerCore) throws(GraftError) -> ParentScopeLink {
        // The caller keeps `scope` alive for the call.
        try child.resolve(ParentScopeLink.self, name: nil, from: Unretained(scope))
    }
}

extension RegistrationTable {
    /// Whether this table answers `Service` as a `Lazy`, `Provider` or `Optional` of a service
    /// it registers, or as a collection gathered at the call (whose items a child's own
    /// `resolveAll` finds, the parent's included): a child's table asks its parent only for
    /// what it does not.
    @usableFromInline
    func answersWrapped<Service>(_ type: Service.Type, name: String?) -> Bool {
        if name == nil, Service.self is any GatheredCollection.Type { return true }
        guard name == nil, let wrapping = Service.self as? any WrappedDependency.Type else { return false }
        return entry(for: wrapping.dependency.key.id, name: nil) != nil
    }
}

extension Registration {
    /// Whether `makeChild` added this registration to a child's graph: a stand-in for a parent's
    /// registration, or the link to the parent's scopes. A child's `overriding` starts from the
    /// child's own registrations, without these.
    var standsForParent: Bool {
        kind == .parent || key.id == ObjectIdentifier(ParentScopeLink.self)
    }
}

extension Construction {
    /// The engine running this construction.
    var resolvingContainer: ContainerCore {
        site(as: ContainerCore.self)
    }

    /// The scope the construction resolves in (the root's record for the container itself).
    /// Only for recipes that Graft adds, which run inside the engine: it always lends its state.
    var resolvingScope: Scope {
        withRequest(as: ResolveState.self) { $0.scope }
    }
}
