/// A dependency type that Graft makes from other registrations when nobody registers it
/// itself: ``All``, ``ByName`` and ``Named``.
///
/// Linking adds one registration for each such type that something asks for (an autowired
/// parameter, a closure factory's `dependencies:`, or the service inside a `Lazy`, `Provider`
/// or `Optional`). That registration is an ordinary transient whose dependencies are the
/// registrations it gathers, so `build()` checks what is behind it like any other edge
/// (missing dependencies, cycles, captive lifetimes, `await`), and resolving it follows the
/// links of the resolve under way: nothing in the engine knows collections exist.
protocol AdaptedDependency: Sendable {
    /// The registration that makes this type from `registrations` (everything registered,
    /// in registration order), reported at `source`: where the first dependent was registered.
    static func adapter(among registrations: [Registration], source: SourceLocation) -> Registration

    /// What a diagram shows for the added registration: `collection`, `named`.
    static var adapterNote: String { get }

    /// The type whose registrations the adapter gathers: what a child container proxies from
    /// its parent for it.
    static var itemType: ObjectIdentifier { get }

    /// Whether the adapter makes what it adapts in a scope of its own, opened under the scope it
    /// is resolved in (``Owned``): what lives behind it belongs to that scope, not to whoever
    /// holds the adapter, so the captive check does not look past it. `false` by default.
    static var opensScope: Bool { get }

    /// The hint a problem of `item`, reached through this adapter from `holder`, ends with:
    /// where `item` is injected. By default, that `item` is in the collection `holder` receives.
    static func itemHint(_ item: ServiceKey, heldBy holder: ServiceKey) -> String
}

extension AdaptedDependency {
    static var opensScope: Bool { false }

    static func itemHint(_ item: ServiceKey, heldBy holder: ServiceKey) -> String {
        "\(item) is in the \(ServiceKey(Self.self).typeName) that \(holder) receives"
    }
}

extension Registration {
    /// The registration of an adapter that makes `Adapter` from `dependencies`: a transient,
    /// unless the adapter is the state of the scope it is made in (`.scoped`).
    ///
    /// With `makeAsync`, the adapter has an async form, run where it is made awaiting because
    /// something it needs must be awaited: for an adapter that resolves what it adapts itself
    /// (in a scope of its own) rather than from the dependencies the engine awaits first.
    init<Adapter: AdaptedDependency>(
        adapter: Adapter.Type,
        lifetime: Lifetime.Kind = .transient,
        dependencies: [DeclaredDependency],
        source: SourceLocation,
        make: @escaping @Sendable (inout Construction) throws(GraftError) -> Adapter,
        makeAsync: (@Sendable (inout Construction) async throws(GraftError) -> Adapter)? = nil
    ) {
        // An autowired recipe: its dependencies are declared, so the async path awaits them
        // first and then runs it, as for an initializer.
        let build: Recipe.Build = { construction in
            let adapted = try make(&construction)
            try construction.deliver(adapted)
        }
        let recipe =
            if let makeAsync {
                Recipe(.autowired, build: build) { construction in
                    let adapted = try await makeAsync(&construction)
                    try construction.deliver(adapted)
                }
            } else {
                Recipe(.autowired, build: build)
            }
        self.init(
            adapter,
            name: nil,
            lifetime: lifetime,
            recipe: recipe,
            dependencies: dependencies,
            fileID: source.fileID,
            line: Int(source.line)
        )
    }
}
