/// One named registration of a service, injected: the autowired form of
/// `resolve(Engine.self, name: "v12")`.
///
/// The name is a ``ServiceName`` type, spelled once and used both where the registration is
/// made (`name: V12.name`) and in the parameter's type, so `build()` can check that the named
/// registration exists before anything runs. The instance is made by that registration's
/// lifetime, before the holder, as any other dependency.
///
/// ```swift
/// enum V12: ServiceName { static let name = "v12" }
///
/// builder.register(Engine.self, name: V12.name, lifetime: .singleton, using: V12Engine.init)
/// builder.register(RaceCar.self, using: RaceCar.init(engine:))
///
/// struct RaceCar: Sendable {
///     let engine: Engine
///     init(engine: Named<Engine, V12>) { self.engine = engine.value }
/// }
/// ```
///
/// Plain `String` names keep working as before, in closure factories and `resolve(_:name:)`.
public struct Named<Service: Sendable, Name: ServiceName>: Sendable {
    /// The instance of the registration named `Name.name`.
    public let value: Service

    /// A named dependency holding `value`: for tests and hand-written wiring.
    ///
    /// - Parameter value: The instance.
    public init(_ value: Service) {
        self.value = value
    }
}

extension Named: AdaptedDependency {
    static var itemType: ObjectIdentifier { ObjectIdentifier(Service.self) }

    static func adapter(among registrations: [Registration], source: SourceLocation) -> Registration {
        Registration(
            adapter: Named.self,
            dependencies: [DeclaredDependency(key: ServiceKey(Service.self, name: Name.name))],
            source: source
        ) { construction throws(GraftError) in
            Named(try construction.next(Service.self))
        }
    }

    static var adapterNote: String { "named" }
}

extension Named: NamedReference {
    static var nameTypeName: String { String(describing: Name.self) }
}
