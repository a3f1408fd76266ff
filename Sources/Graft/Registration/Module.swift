/// A group of registrations that keeps configuration out of the objects themselves.
///
/// A module registers what it provides and declares what it needs from the app or other
/// modules; `build()` reports every unmet requirement and which module needed it.
///
/// ```swift
/// struct PitCrewModule: Module {
///     var requirements: [Requirement] { [Requirement(RadioFrequency.self)] }
///
///     func register(in builder: inout ContainerBuilder) {
///         builder.register(Engine.self, lifetime: .singleton) { _ in RCEngine() }
///         builder.register(RaceCar.self, using: RaceCar.init(engine:radio:))
///     }
/// }
///
/// builder.install(PitCrewModule())
/// ```
public protocol Module {
    /// Adds the module's registrations to `builder`.
    ///
    /// - Parameter builder: The builder the module was installed into.
    func register(in builder: inout ContainerBuilder)

    /// Services the module uses but does not register; the app or another module must.
    var requirements: [Requirement] { get }
}

extension Module {
    /// No requirements.
    public var requirements: [Requirement] { [] }
}

/// A service a ``Module`` needs someone else to register.
///
/// ```swift
/// var requirements: [Requirement] { [Requirement(Analytics.self), Requirement(Logger.self, name: "audit")] }
/// ```
public struct Requirement: Hashable, Sendable, CustomStringConvertible {
    let key: ServiceKey

    /// A requirement for the registration of `type` under `name`.
    ///
    /// - Parameters:
    ///   - type: The service type the module resolves.
    ///   - name: The registration's name; `nil` for the unnamed one.
    public init<Service>(_ type: Service.Type, name: String? = nil) {
        self.key = ServiceKey(type, name: name)
    }

    /// The required service as messages show it: `Analytics` or `Logger["audit"]`.
    public var description: String { key.description }
}

/// A requirement together with the module that declared it.
struct ModuleRequirement: Sendable {
    let key: ServiceKey
    let module: String
}
