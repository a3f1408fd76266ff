/// Resolves services: what a factory closure receives, and what ``Container`` and ``Scope`` are.
///
/// Inside a factory, resolve through the resolver you are given rather than a container you
/// captured: it knows the resolution under way, so it finds cycles, shares `.graph` instances
/// and gives transients to the right owner.
///
/// ```swift
/// builder.register(RaceCar.self) { r in
///     RaceCar(engine: try r.resolve(Engine.self), wheels: try r.resolveAll(Wheel.self))
/// }
/// ```
///
/// In `async` code Swift picks the `async` overloads, so write `try await r.resolve(...)` there;
/// it resolves synchronous services as well.
public protocol Resolver: Sendable {
    /// Resolves the instance registered for `type` and `name`.
    ///
    /// - Parameters:
    ///   - type: The registered service type.
    ///   - name: The registration's name; `nil` for the unnamed one.
    /// - Returns: A new or shared instance, depending on its ``Lifetime``.
    /// - Throws: ``GraftError`` when nothing is registered, the factory fails, a cycle is
    ///   found, or the service needs `await`.
    func resolve<Service: Sendable>(_ type: Service.Type, name: String?) throws(GraftError) -> Service

    /// Resolves the instance registered for `type` and `name`, awaiting async factories.
    ///
    /// - Parameters:
    ///   - type: The registered service type.
    ///   - name: The registration's name; `nil` for the unnamed one.
    /// - Returns: A new or shared instance, depending on its ``Lifetime``.
    /// - Throws: ``GraftError`` when nothing is registered, the factory fails or a cycle is found.
    func resolve<Service: Sendable>(_ type: Service.Type, name: String?) async throws(GraftError) -> Service

    /// Resolves every registration of `type`, named or not, in registration order.
    ///
    /// - Parameter type: The registered service type.
    /// - Returns: One instance per registration; empty when there is none.
    /// - Throws: ``GraftError`` when a factory fails.
    func resolveAll<Service: Sendable>(_ type: Service.Type) throws(GraftError) -> [Service]

    /// Resolves every registration of `type` in registration order, awaiting async factories.
    ///
    /// - Parameter type: The registered service type.
    /// - Returns: One instance per registration; empty when there is none.
    /// - Throws: ``GraftError`` when a factory fails.
    func resolveAll<Service: Sendable>(_ type: Service.Type) async throws(GraftError) -> [Service]
}

extension Resolver {
    /// Resolves the unnamed instance of `type`; the type can be inferred from context.
    ///
    /// ```swift
    /// let engine: Engine = try r.resolve()
    /// ```
    ///
    /// - Parameter type: The registered service type.
    /// - Returns: A new or shared instance, depending on its ``Lifetime``.
    /// - Throws: ``GraftError`` when the service cannot be resolved.
    @inlinable
    public func resolve<Service: Sendable>(_ type: Service.Type = Service.self) throws(GraftError) -> Service {
        try resolve(type, name: nil)
    }

    /// Resolves the unnamed instance of `type`, awaiting async factories.
    ///
    /// - Parameter type: The registered service type.
    /// - Returns: A new or shared instance, depending on its ``Lifetime``.
    /// - Throws: ``GraftError`` when the service cannot be resolved.
    @inlinable
    public func resolve<Service: Sendable>(_ type: Service.Type = Service.self) async throws(GraftError) -> Service {
        try await resolve(type, name: nil)
    }
}

extension Resolver {
    /// Not callable: `let engine = try container.resolve()` names no type, so nothing says what to
    /// resolve. Write `resolve(Engine.self)`, or give the result a type.
    ///
    /// Why it exists: with only the generic `resolve(_ type: Service.Type = Service.self)`
    /// overloads, a call with no type to infer `Service` from leaves the compiler unable to
    /// pick one and it prints "failed to produce diagnostic for expression" (Swift 6.3, for the
    /// protocol's generic, typed-throws `resolve` methods). This non-generic overload matches
    /// exactly that call, so the compiler reports it as unavailable with the message below; a
    /// call whose result has a type still picks the generic overloads, since `Never` converts
    /// to no other type.
    ///
    /// ```swift
    /// let engine = try container.resolve(Engine.self)      // the type as an argument
    /// let engine: Engine = try container.resolve()         // or from the annotation
    /// ```
    ///
    /// - Returns: Nothing: the call does not compile.
    /// - Throws: Nothing: the call does not compile.
    @available(
        *,
        unavailable,
        message:
            "resolve() needs a type: write resolve(Engine.self), or annotate the result: let engine: Engine = try resolve()"
    )
    public func resolve() throws(GraftError) -> Never {
        try resolve(Never.self, name: nil)
    }
}
