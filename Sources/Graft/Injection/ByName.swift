/// The named registrations of a service, injected and keyed by name: a handler per command, a
/// formatter per locale, chosen at run time.
///
/// Ask for `ByName<T>` as an autowired parameter (or list it in a closure factory's
/// `dependencies:`) and it holds, for each name `T` is registered under, the instance that
/// `resolve(T.self, name:)` gives: the last registration of that name, made by its lifetime.
/// The unnamed registration is not in it. It needs no registration of its own; with no named
/// registration of `T` it is empty.
///
/// ```swift
/// builder.register(Command.self, name: "deploy", using: DeployCommand.init)
/// builder.register(Command.self, name: "rollback", using: RollbackCommand.init)
/// builder.register(CommandLine.self, using: CommandLine.init(commands:))
///
/// struct CommandLine: Sendable {
///     let commands: ByName<Command>
///     func run(_ name: String) throws { try commands[name]?.run() }
/// }
/// ```
///
/// `build()` checks every instance behind it as a dependency of the holder.
public struct ByName<Service: Sendable>: Sendable {
    /// The names, in the order their registrations were made.
    public let names: [String]
    /// The instances by name.
    public let services: [String: Service]

    /// A collection holding `services`: for tests and hand-written wiring.
    ///
    /// - Parameter services: The instances by name, in the order a container would give them.
    public init(_ services: KeyValuePairs<String, Service>) {
        self.init(pairs: services.map { ($0.key, $0.value) })
    }

    init(pairs: [(String, Service)]) {
        self.names = pairs.map(\.0)
        self.services = Dictionary(pairs) { _, last in last }
    }

    /// The instance registered under `name`, or `nil` when there is none.
    ///
    /// - Parameter name: A registration's name.
    public subscript(name: String) -> Service? { services[name] }

    /// How many names there are.
    public var count: Int { names.count }

    /// Whether there are none.
    public var isEmpty: Bool { names.isEmpty }
}

extension ByName: AdaptedDependency {
    static var itemType: ObjectIdentifier { ObjectIdentifier(Service.self) }

    static func adapter(among registrations: [Registration], source: SourceLocation) -> Registration {
        let id = ObjectIdentifier(Service.self)
        // Each name once, where it was first registered; its dependency is found by key, so
        // it links to that name's last registration, the one `resolve(_:name:)` gives.
        var seen = Set<String>()
        let names = registrations.compactMap { registration in
            registration.key.id == id ? registration.key.name : nil
        }.filter { seen.insert($0).inserted }
        return Registration(
            adapter: ByName.self,
            dependencies: names.map { DeclaredDependency(key: ServiceKey(Service.self, name: $0)) },
            source: source
        ) { construction throws(GraftError) in
            var pairs: [(String, Service)] = []
            pairs.reserveCapacity(names.count)
            for name in names { pairs.append((name, try construction.next(Service.self))) }
            return ByName(pairs: pairs)
        }
    }

    static var adapterNote: String { "collection by name" }
}
