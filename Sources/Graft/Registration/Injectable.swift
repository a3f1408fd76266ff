/// A type that registers itself, from its own declaration: what the `@Injectable` macro of the
/// GraftMacros package generates, or a conformance written by hand.
///
/// Conforming declares nothing that runs at start-up on its own: the type is registered only
/// when something lists it, in `main` or in a ``Module``, and nothing ever scans for conforming
/// types.
///
/// ```swift
/// extension RaceCar: Injectable {
///     static func register(in builder: inout ContainerBuilder) {
///         builder.register(RaceCar.self, using: RaceCar.init(engine:transmission:))
///     }
/// }
///
/// builder.register(RaceCar.self, Engine.self)
/// ```
public protocol Injectable {
    /// Adds the type's registrations to `builder`: its own, and an alias for each type it
    /// answers for.
    ///
    /// - Parameter builder: The builder the type is registered on.
    static func register(in builder: inout ContainerBuilder)
}

extension ContainerBuilder {
    /// Registers each type as its declaration says, in order: `register(in:)` of each.
    ///
    /// ```swift
    /// builder.register(RaceCar.self, Engine.self, Transmission.self)
    /// ```
    ///
    /// - Parameter types: The types to register.
    public mutating func register(_ types: any Injectable.Type...) {
        for type in types {
            type.register(in: &self)
        }
    }
}
