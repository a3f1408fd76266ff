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
}

extension Registration {
    /// The transient registration of an adapter that makes `Adapter` from `dependencies`.
    init<Adapter: AdaptedDependency>(
        adapter: Adapter.Type,
        dependencies: [DeclaredDependency],
        source: SourceLocation,
        make: @escaping @Sendable (inout Construction) throws(GraftError) -> Adapter
    ) {
        // An autowired recipe: its dependencies are declared, so the async path awaits them
        // first and then runs it, as for an initializer.
        let recipe = Recipe(.autowired) { construction in
            let adapted = try make(&construction)
            try construction.deliver(adapted)
        }
        self.init(
            adapter,
            name: nil,
            lifetime: .transient,
            recipe: recipe,
            dependencies: dependencies,
            fileID: source.fileID,
            line: Int(source.line)
        )
    }
}
