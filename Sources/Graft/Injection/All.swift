/// Every registration of a service, injected: plugins, handlers, middlewares that modules
/// contribute without a central list.
///
/// Ask for `All<T>` as an autowired parameter (or list it in a closure factory's
/// `dependencies:`) and it holds one instance per registration of `T`, unnamed and named, in
/// registration order, each made by its own registration's lifetime: what
/// ``Resolver/resolveAll(_:)-5u0d`` returns. It needs no registration of its own; with no
/// registration of `T` it is empty. `[T]` keeps its ordinary meaning: a registered array.
///
/// ```swift
/// builder.register(Middleware.self, name: "auth", using: AuthMiddleware.init)
/// builder.register(Middleware.self, name: "log", using: LogMiddleware.init)
/// builder.register(Pipeline.self, using: Pipeline.init(middlewares:))
///
/// struct Pipeline: Sendable {
///     let middlewares: All<Middleware>
/// }
/// ```
///
/// `build()` checks every item as a dependency of the holder: a missing dependency of one,
/// a cycle through the collection, and a longer-lived holder capturing a shorter-lived item.
public struct All<Service: Sendable>: Sendable, RandomAccessCollection {
    /// The instances, in registration order.
    public let elements: [Service]

    /// A collection holding `elements`: for tests and hand-written wiring.
    ///
    /// - Parameter elements: The instances, in the order a container would give them.
    public init(_ elements: [Service]) {
        self.elements = elements
    }

    /// The position of the first instance.
    public var startIndex: Int { elements.startIndex }

    /// The position after the last instance.
    public var endIndex: Int { elements.endIndex }

    /// The instance at `position`.
    ///
    /// - Parameter position: A valid index of the collection.
    public subscript(position: Int) -> Service { elements[position] }
}

extension All: AdaptedDependency {
    static var itemType: ObjectIdentifier { ObjectIdentifier(Service.self) }

    static func adapter(among registrations: [Registration], source: SourceLocation) -> Registration {
        let id = ObjectIdentifier(Service.self)
        let items = registrations.indices.filter { registrations[$0].key.id == id }
        return Registration(
            adapter: All.self,
            dependencies: items.map { DeclaredDependency(registration: $0, key: registrations[$0].key) },
            source: source
        ) { construction throws(GraftError) in
            var elements: [Service] = []
            elements.reserveCapacity(items.count)
            for _ in items { elements.append(try construction.next(Service.self)) }
            return All(elements)
        }
    }

    static var adapterNote: String { "collection" }
}
