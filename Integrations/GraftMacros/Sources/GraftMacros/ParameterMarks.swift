/// Marks an initializer parameter of an ``Injectable(_:as:)`` type as the named registration of
/// its type.
///
/// ```swift
/// @Injectable
/// final class RaceCar: Sendable {
///     init(@Named("v12") engine: any Engine) { … }   // resolve((any Engine).self, name: "v12")
///     init(@Named(V12.self) engine: any Engine) { … } // the name a ServiceName type spells
/// }
/// ```
///
/// The attribute is a property wrapper only so that Swift accepts it on a parameter: it keeps the
/// value as is. In a file that imports GraftMacros, this `Named` hides Graft's `Named<Service,
/// Name>` type; spell that one `Graft.Named<any Engine, V12>` there, or use `@Named(V12.self)`.
@propertyWrapper
public struct Named<Value> {
    /// The parameter's value.
    public var wrappedValue: Value

    /// Keeps `wrappedValue`; `@Injectable` reads the name from the attribute.
    ///
    /// - Parameters:
    ///   - wrappedValue: The parameter's value.
    ///   - name: The registration's name.
    public init(wrappedValue: Value, _ name: String) {
        self.wrappedValue = wrappedValue
    }

    /// Keeps `wrappedValue`; `@Injectable` reads the name type from the attribute.
    ///
    /// - Parameters:
    ///   - wrappedValue: The parameter's value.
    ///   - name: The `ServiceName` type whose name the registration has.
    public init<Name: ServiceName>(wrappedValue: Value, _ name: Name.Type) {
        self.wrappedValue = wrappedValue
    }
}

/// Marks an initializer parameter of an ``Injectable(_:as:)`` type as a runtime argument: the
/// caller passes it (`resolve(_:arguments:)`, an injected `Factory`), the container supplies the
/// rest.
///
/// ```swift
/// @Injectable
/// final class PitStop: Sendable {
///     init(@Argument lap: Lap, crew: PitCrew) { … }
/// }
///
/// let stop = try container.resolve(PitStop.self, arguments: Lap(number: 18))
/// ```
///
/// Only a transient registration takes arguments. The attribute is a property wrapper only so
/// that Swift accepts it on a parameter: it keeps the value as is.
@propertyWrapper
public struct Argument<Value> {
    /// The parameter's value.
    public var wrappedValue: Value

    /// Keeps `wrappedValue`.
    ///
    /// - Parameter wrappedValue: The parameter's value.
    public init(wrappedValue: Value) {
        self.wrappedValue = wrappedValue
    }
}
