/// A registration as one built table holds it: linked to the entries of its dependencies.
///
/// Entries are created once by `build()` and never change, so resolving reads them without a
/// lock and follows `links` (indexes into the table) instead of hashing a key per dependency.
@usableFromInline
final class Entry: Sendable {
    @usableFromInline let key: ServiceKey
    /// Position in the table, which is registration order.
    @usableFromInline let index: Int
    @usableFromInline let lifetime: Lifetime.Kind
    /// The tag of the scope a `.scoped(in:)` instance is shared in; `nil` otherwise.
    let scopeTag: ScopeTagID?
    /// How the instance is made, as the graph checks and the engine's choices see it.
    @usableFromInline let kind: FactoryKind
    /// The recipe's async factory, or the async form of a synchronous one; `nil` for a
    /// synchronous one without such a form. The recipe itself is not kept:
    /// holding it as well as ``build`` would retain and release its closure once more for every
    /// entry made.
    let buildAsync: Recipe.BuildAsync?
    /// The recipe's synchronous factory, stored on its own: a closure read straight from a
    /// `let` is called without retaining its context, while one matched out of the recipe's
    /// enum is copied, a retain and release on memory that every thread making this service
    /// shares. For an async factory this is a closure that is never called (see `isAsync`).
    let build: Recipe.Build
    /// Whether the factory must be awaited.
    let isAsync: Bool
    /// The registered type, for making an instance untyped (see `ContainerCore.makeErased`).
    @usableFromInline let serviceType: any Sendable.Type
    /// The dependencies as linking classified them, in parameter order.
    ///
    /// Made when asked for an entry whose dependencies are all plain, as most are (the engine
    /// asks only on its slow paths: awaiting them first, or reporting an error): such an entry
    /// keeps nothing but its registration's declared dependencies, which it shares, so making
    /// it allocates no array of them.
    @usableFromInline var dependencies: [Dependency] {
        linkedDependencies ?? declaredDependencies.map { Dependency.linked($0, isRegistered: true) }
    }
    /// The dependencies as linking classified them, when any is not plain; `nil` otherwise.
    private let linkedDependencies: [Dependency]?
    /// The registration's declared dependencies.
    private let declaredDependencies: [DeclaredDependency]
    /// For each dependency handed over deferred, the form made with its link (its parameter's
    /// own type, found once here rather than by a cast per resolve); `nil` for the others, and
    /// empty when every dependency is plain.
    let deferredForms: [(any DeferredForm.Type)?]
    /// For each dependency, the index of the entry that answers it, or `-1` when none does
    /// (an unregistered optional).
    @usableFromInline let links: [Int]
    /// For each parameter, the index of the entry answering it when it is a plain dependency
    /// (not a `Lazy`, a `Provider` or an optional), else `-1`: lent by address to each
    /// construction for exactly its run (see `Construction.lending`), so following a parameter
    /// touches no reference count. `links` itself (the same storage) when every dependency is
    /// plain, as most are.
    let plainTargets: [Int]
    /// Activation hooks, then decorators, in the order they were added.
    @usableFromInline let activations: [Activation]
    /// What disposes each new instance, when the registration gave a dispose closure.
    let disposer: Disposer?
    /// What completes each new instance in its scope's completion step, when the registration
    /// has one (see ``Scope/complete()``).
    let completion: CompletionStep?
    /// The types of the runtime arguments a caller passes, in order; empty for most services.
    let arguments: [ServiceKey]
    /// Index into the container's singleton slots or a scope's instance slots; `-1` otherwise.
    @usableFromInline let slot: Int
    /// The entry whose async factory makes this one need `await`; `nil` when it needs none.
    @usableFromInline let asyncCause: Int?
    /// Whether this is an `instance:` registration, which is never created or shared anew.
    @usableFromInline let isInstance: Bool
    @usableFromInline let source: SourceLocation

    /// Whether the root container keeps the instance (`.singleton`, `.eagerSingleton`).
    @usableFromInline let isRootOwned: Bool
    /// Whether any plain dependency links to a singleton, whose instance a construction may
    /// find already made (see ``Construction/existing``): constructions of the other entries
    /// skip the look.
    let linksToSingletons: Bool
    /// Whether any activation hook runs on new instances.
    @usableFromInline let hasActivations: Bool
    /// Whether a shared instance's cell holds the instance itself (``InstanceCell``), asked once
    /// here rather than of the runtime at every read.
    @usableFromInline let holdsInstanceItself: Bool
    /// Whether the container has observers to tell of each creation (see ``Observers``).
    let isObserved: Bool
    /// `key.description`, made once for the observers' events; empty when none observes.
    let observedName: String

    /// An entry from what it reads of its registration, each part passed on its own: an
    /// initializer's arguments are its own, so each is stored without a copy, where a struct of
    /// them would be copied field by field and then destroyed.
    init(
        key: ServiceKey,
        lifetime: Lifetime.Kind,
        scopeTag: ScopeTagID?,
        kind: FactoryKind,
        build: @escaping Recipe.Build,
        buildAsync: Recipe.BuildAsync?,
        serviceType: any Sendable.Type,
        declaredDependencies: [DeclaredDependency],
        activations hooks: [Activation],
        location: SourceLocation,
        index: Int,
        dependencies linkedDependencies: [Dependency]?,
        links: [Int],
        linksToSingletons: Bool,
        slot: Int,
        asyncCause: Int?,
        isObserved: Bool = false
    ) {
        self.isObserved = isObserved
        self.observedName = isObserved ? key.description : ""
        self.key = key
        self.index = index
        self.lifetime = lifetime
        self.scopeTag = scopeTag
        self.kind = kind
        self.buildAsync = buildAsync
        self.build = build
        self.isAsync = kind.isAsync
        self.serviceType = serviceType
        func holdsItself<Service>(_ type: Service.Type) -> Bool { InstanceCell.holdsInstanceItself(type) }
        self.holdsInstanceItself = holdsItself(serviceType)
        self.linkedDependencies = linkedDependencies
        self.declaredDependencies = declaredDependencies
        self.deferredForms =
            linkedDependencies.map { linked in
                linked.indices.map { position in
                    linked[position].kind == .deferred
                        ? declaredDependencies[position].key.type as? any DeferredForm.Type : nil
                }
            } ?? []
        self.links = links
        self.linksToSingletons = linksToSingletons
        if let dependencies = linkedDependencies {
            // Each dependency read in place: zipping the two arrays would copy every
            // `Dependency` once more.
            self.plainTargets = dependencies.indices.map { position in
                dependencies[position].kind == .direct ? links[position] : -1
            }
        } else {
            // Every dependency is plain: the links are the plain targets, shared, not copied.
            self.plainTargets = links
        }
        // Most have none: no closure to run over an empty array.
        self.activations = hooks.isEmpty ? [] : hooks.filter { $0.role == .activation || $0.role == .decorator }
        self.disposer = hooks.isEmpty ? nil : hooks.last { $0.role == .disposal }?.disposer
        self.completion = hooks.isEmpty ? nil : CompletionStep.combining(hooks.compactMap(\.completion))
        // Plain dependencies are never runtime arguments.
        self.arguments =
            linkedDependencies?.filter { $0.kind == .argument }.sorted { $0.argument < $1.argument }.map(\.key) ?? []
        self.hasActivations = !self.activations.isEmpty
        self.isRootOwned = lifetime.store == .rootSlot && !kind.isInstance
        self.slot = slot
        self.asyncCause = asyncCause
        self.source = location
        self.isInstance = kind.isInstance
    }

    /// The entry for registration `index` of `graph`.
    ///
    /// A shared instance's slot is its registration's index: the container's slots and each
    /// scope's table have room for every registration, so no numbering is kept elsewhere.
    ///
    /// `graph` is borrowed: an initializer otherwise takes its arguments as its own, which would
    /// copy the whole graph (a retain of each of its arrays) for every entry made. The
    /// registration is read field by field where the graph keeps it: passed whole, it is copied
    /// out of the array (a retain and a release of each of its references, about 290
    /// instructions an entry), since the optimizer cannot tell that making the entry leaves the
    /// array alone.
    static func make(graph: borrowing DependencyGraph, index: Int, isObserved: Bool = false) -> Entry {
        let links = graph.links[index]
        let lifetime = graph.registrations[index].lifetime
        // Stored fields only: a computed property of the registration would be called on a
        // copy of it, for the same reason.
        let extras = graph.registrations[index].extras
        return Entry(
            key: ServiceKey(graph.registrations[index].serviceType, name: graph.registrations[index].name),
            lifetime: lifetime,
            scopeTag: Registration.scopeTag(in: extras),
            kind: graph.registrations[index].recipe.kind,
            // Each closure matched out of the recipe where the graph keeps it: the recipe passed
            // whole would be copied, a retain and a release of its closure for every entry made.
            // Matched out of the recipe's own enum (see `Recipe.build(for:)`): passing the
            // closure through a generic `Optional` (`recipe.build ?? …`) would wrap it in two
            // reabstraction thunks, two allocations per entry and an extra call per construction.
            build: graph.registrations[index].recipe.build(for: graph.registrations[index].serviceType),
            buildAsync: graph.registrations[index].recipe.buildAsync,
            serviceType: graph.registrations[index].serviceType,
            declaredDependencies: graph.registrations[index].dependencies,
            activations: Registration.activations(in: extras),
            location: SourceLocation(fileID: graph.registrations[index].fileID, line: graph.registrations[index].line),
            index: index,
            dependencies: graph.dependenciesArePlain(of: index) ? nil : graph.dependencies(of: index),
            links: links,
            linksToSingletons: links.contains { $0 >= 0 && graph.lifetime($0).store == .rootSlot },
            slot: lifetime.store == .none || lifetime.store == .call ? -1 : index,
            asyncCause: graph.asyncCause(index),
            isObserved: isObserved
        )
    }
}

extension Entry {
    /// Throws when this entry needs `await` and a resolve under `state` cannot give it: the one
    /// check a synchronous resolve makes before it creates anything.
    @inline(__always)
    func requireNoAwait(_ state: borrowing ResolveState, in table: RegistrationTable) throws(GraftError) {
        if asyncCause != nil { throw ResolutionErrors.needsAwait(self, in: table, inFactoryOf: state.frame) }
    }
}
