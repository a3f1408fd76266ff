/// Values that arrive untyped (`any Sendable`: a `Lazy`, a `Provider`, an optional, a prefetched
/// parameter), given back as the type the caller asked for.
enum Untyped {
    /// `value` as `type`; a type mismatch when it is not one.
    @usableFromInline
    static func cast<Service>(
        _ value: any Sendable,
        to type: Service.Type,
        _ key: ServiceKey
    ) throws(GraftError) -> Service {
        guard let service = value as? Service else { throw ResolutionErrors.typeMismatch(value, Service.self, key) }
        return service
    }

    /// The typed `nil` an unregistered optional dependency receives.
    static func absent<Value>(
        _ type: Value.Type,
        _ key: ServiceKey,
        in table: RegistrationTable
    ) throws(GraftError) -> Value {
        guard let none = absentValue(of: type) else { throw ResolutionErrors.notRegistered(key, in: table) }
        return none
    }

    /// `value`, the untyped argument for parameter `index` of registration `node`, as the
    /// parameter's type; `nil` is an unregistered optional.
    static func parameter<Parameter: Sendable>(
        _ value: (any Sendable)?,
        as type: Parameter.Type,
        _ node: Int,
        _ index: Int,
        in table: RegistrationTable
    ) throws(GraftError) -> Parameter {
        let key = table.entries[node].dependencies[index].key
        guard let value else { return try absent(type, key, in: table) }
        return try cast(value, to: type, key)
    }
}
