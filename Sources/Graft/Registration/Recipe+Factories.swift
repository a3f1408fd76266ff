/// The recipe of a closure factory, made without an allocation of its own wherever it is made.
///
/// Where `Service` is known at compile time (the app's own `register` calls, once the compiler
/// has specialized the inlined `register`), the recipe is a closure over the factory; for a
/// closure literal the optimizer makes it one without a context that runs the factory's body
/// directly. Where `Service` is a generic parameter at run time (a registration helper generic
/// over the service type), such a closure would capture the factory and the type, 48 bytes for
/// each registration whether or not it is ever resolved. There the recipe keeps the factory as
/// the user made it, and the entry makes the closure for the registered type when it is first
/// made (``Recipe/Body/closureOfRegisteredType(_:)``).
extension Recipe {
    /// The recipe of a synchronous closure factory registered as `type`.
    ///
    /// The factory is kept erased only when `type` is `Service` itself, so that the entry, which
    /// knows the registered type alone, unerases it as the very type it was erased as (a
    /// subclass's metatype passed as `type` keeps the closure).
    @inlinable
    static func closure<Service: Sendable>(
        _ make: @escaping @Sendable (any Resolver) throws -> Service,
        registeredAs type: Service.Type
    ) -> Recipe {
        if !_isConcrete(Service.self), ObjectIdentifier(type) == ObjectIdentifier(Service.self) {
            return Recipe(closureOfRegisteredType: ErasedFactory(ClosureFactory(make: make)))
        }
        return Recipe(.closure) { construction in
            let service = try make(construction.resolver())
            try construction.deliver(service)
        }
    }
}

/// A closure factory in the one-closure holder ``ErasedFactory`` erases.
@usableFromInline
struct ClosureFactory<Service: Sendable>: Sendable {
    @usableFromInline let make: @Sendable (any Resolver) throws -> Service

    @inlinable
    init(make: @escaping @Sendable (any Resolver) throws -> Service) {
        self.make = make
    }
}

extension Recipe {
    /// The closure that runs `factory`, which ``closure(_:)`` erased, for `type`, the registered
    /// type: made when the registration's entry is first made.
    ///
    /// `type` is the `Service` the factory was erased with: ``closure(_:registeredAs:)`` erases
    /// it only when the registered type is that very type.
    static func closure(running factory: ErasedFactory, for type: any Sendable.Type) -> Build {
        func build<Registered: Sendable>(_: Registered.Type) -> Build {
            let make = factory.unerased(as: ClosureFactory<Registered>.self).make
            return { construction in
                let service = try make(construction.resolver())
                try construction.deliver(service)
            }
        }
        return build(type)
    }
}
