@_exported public import Graft

/// Registers a class, struct or actor from its own declaration: generates its conformance to
/// Graft's `Injectable`, whose `register(in:)` is the registration you would write by hand.
///
/// ```swift
/// @Injectable(.singleton, as: (any Engine).self)
/// final class V12Engine: Engine {
///     init(fuel: Fuel) { … }
/// }
///
/// builder.register(V12Engine.self)   // builder.register(V12Engine.self, lifetime: .singleton,
///                                    //     using: V12Engine.init(fuel:))
///                                    // builder.alias((any Engine).self, to: V12Engine.self)
/// ```
///
/// The registration calls the type's one initializer (the one marked ``Inject()`` when there are
/// several, the memberwise one of a struct that declares none). A parameter marked
/// ``Named`` is the named registration of its type; one marked ``Argument`` is passed by the
/// caller. `build()` reports what is missing with the file and line of the type.
///
/// - Parameters:
///   - lifetime: How long an instance lives; `.transient` by default.
///   - aliases: The other types the registration answers for, with the same instance: protocols
///     it conforms to.
@attached(extension, conformances: Injectable, names: named(register), arbitrary)
public macro Injectable(_ lifetime: Lifetime = .transient, as aliases: any Any.Type...) =
    #externalMacro(module: "GraftMacrosPlugin", type: "InjectableMacro")

/// Marks the initializer ``Injectable(_:as:)`` calls, when a type has several.
///
/// ```swift
/// @Injectable
/// struct Telemetry {
///     @Inject init(radio: Radio) { … }
///     init(recording: URL) { … }
/// }
/// ```
@attached(peer)
public macro Inject() = #externalMacro(module: "GraftMacrosPlugin", type: "InjectMacro")
